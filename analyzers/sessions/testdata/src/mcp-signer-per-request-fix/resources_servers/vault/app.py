import logging

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, mcp_session_token_payload, mcp_session_token_serializer

logger = logging.getLogger(__name__)


# Two routes build the same signer from the config: one cached property,
# built on first use, serves both.
class Vault(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/open")(self.open_box)
        app.post("/peek")(self.peek)
        return app

    async def open_box(self, request: Request, body: dict):
        signer = mcp_session_token_serializer(self.config.secret)  # want "GL313 Vault.open_box .route /open. builds the MCP session token signer per request"
        return mcp_session_token_payload(signer, body["token"])

    async def peek(self, request: Request, body: dict):
        return self._claims(body["token"])

    def _claims(self, token):
        return mcp_session_token_payload(mcp_session_token_serializer(self.config.secret), token)  # want "GL313 Vault._claims .reached from route /peek."


if __name__ == "__main__":
    Vault.run_webserver()
