import functools

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, mcp_session_token_payload
from nemo_gym.base_resources_server import mcp_session_token_serializer

# Once per module.
MODULE_SIGNER = mcp_session_token_serializer("module-secret")


def build_signer(secret):
    return mcp_session_token_serializer(secret)


class Vault(SimpleResourcesServer):
    def model_post_init(self, context):
        self._signer = mcp_session_token_serializer(self.config.secret)
        self._lazy = None

    def setup_webserver(self):
        app = super().setup_webserver()
        self._other = build_signer("setup")
        app.post("/open")(self.open_box)
        app.post("/lazy")(self.lazy)
        app.post("/cached")(self.cached)
        app.post("/local")(self.local)
        return app

    async def open_box(self, request: Request, body: dict):
        return mcp_session_token_payload(self._signer, body["token"])

    async def lazy(self, request: Request, body: dict):
        if self._lazy is None:
            self._lazy = mcp_session_token_serializer(self.config.secret)
        return mcp_session_token_payload(self._lazy, body["token"])

    async def cached(self, request: Request, body: dict):
        signer = self.signer_for(self.config.secret)
        return mcp_session_token_payload(self.cached_signer or signer, body["token"])

    @functools.lru_cache(maxsize=None)
    def signer_for(self, secret):
        return mcp_session_token_serializer(secret)

    @functools.cached_property
    def cached_signer(self):
        return mcp_session_token_serializer(self.config.secret)

    async def local(self, request: Request, body: dict):
        def mcp_session_token_serializer(secret):
            return secret

        return mcp_session_token_serializer("not the framework's")


# Not a resources server.
class Helper:
    def sign(self):
        return mcp_session_token_serializer("x")


if __name__ == "__main__":
    Vault.run_webserver()
