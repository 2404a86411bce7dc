import functools

from fastapi import Request
from nemo_gym import base_resources_server as brs


# The server builds the signer at start-up already: the route uses it.
class Reuse(brs.SimpleResourcesServer):
    def model_post_init(self, context):
        super().model_post_init(context)
        self._signer = brs.mcp_session_token_serializer(secret=self.config.mcp.secret)

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/open")(self.open_box)
        return app

    async def open_box(self, request: Request, body: dict):
        signer = brs.mcp_session_token_serializer(secret=self.config.mcp.secret)  # want "GL313 Reuse.open_box"
        return brs.mcp_session_token_payload(signer, body["token"])


# A constant secret, with functools imported: the property is written
# through it.
class Fixed(brs.SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/open")(self.open_box)
        return app

    async def open_box(self, request: Request, body: dict):
        return brs.mcp_session_token_payload(brs.mcp_session_token_serializer("fixed-secret"), body["token"])  # want "GL313 Fixed.open_box"

    @functools.cache
    def limits(self):
        return {}


if __name__ == "__main__":
    Reuse.run_webserver()
