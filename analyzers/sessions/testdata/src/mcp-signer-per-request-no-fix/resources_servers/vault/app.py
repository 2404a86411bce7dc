from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, mcp_session_token_payload, mcp_session_token_serializer


# Signers made from what a request brings, from a server attribute that
# may change, or across lines, in a closure: no fix.
class Vault(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/open")(self.open_box)
        app.post("/attr")(self.attr)
        app.post("/long")(self.long)
        app.post("/inner")(self.inner)
        return app

    async def open_box(self, request: Request, body: dict):
        signer = mcp_session_token_serializer(body["secret"])  # want "GL313 Vault.open_box"
        return mcp_session_token_payload(signer, body["token"])

    async def attr(self, request: Request, body: dict):
        return mcp_session_token_payload(mcp_session_token_serializer(self.secret), body["token"])  # want "GL313 Vault.attr"

    async def long(self, request: Request, body: dict):
        signer = mcp_session_token_serializer(  # want "GL313 Vault.long"
            self.config.secret
        )
        return mcp_session_token_payload(signer, body["token"])

    async def inner(self, request: Request, body: dict):
        def claims(token):
            return mcp_session_token_payload(mcp_session_token_serializer(self.config.secret), token)  # want "GL313 Vault.inner.claims"

        return claims(body["token"])


# Two secrets in one class: one property would not serve both.
class Two(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/a")(self.a)
        app.post("/b")(self.b)
        return app

    async def a(self, request: Request, body: dict):
        return mcp_session_token_payload(mcp_session_token_serializer(self.config.secret_a), body["token"])  # want "GL313 Two.a"

    async def b(self, request: Request, body: dict):
        return mcp_session_token_payload(mcp_session_token_serializer(self.config.secret_b), body["token"])  # want "GL313 Two.b"


# The name the fix would add is taken.
class Taken(SimpleResourcesServer):
    _mcp_signer: str = "mine"

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/a")(self.a)
        return app

    async def a(self, request: Request, body: dict):
        return mcp_session_token_payload(mcp_session_token_serializer(self.config.secret), body["token"])  # want "GL313 Taken.a"


if __name__ == "__main__":
    Vault.run_webserver()
