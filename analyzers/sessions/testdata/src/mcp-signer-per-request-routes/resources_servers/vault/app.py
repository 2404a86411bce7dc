from fastapi import Request
from nemo_gym import base_resources_server as brs
from nemo_gym.base_resources_server import SimpleResourcesServer, mcp_session_token_payload
from nemo_gym.base_resources_server import mcp_session_token_serializer as make_signer


class Vault(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/open")(self.open_box)
        app.post("/peek")(self.peek)
        return app

    async def open_box(self, request: Request, body: dict):
        signer = make_signer(self.config.secret) # want `GL313 Vault.open_box \(route /open\) builds the MCP session token signer per request: mcp_session_token_serializer\(...\) runs on every call help: build it once per server, in model_post_init`
        return mcp_session_token_payload(signer, body["token"])

    async def peek(self, request: Request, body: dict):
        return self._claims(body["token"])

    def _claims(self, token):
        return mcp_session_token_payload(brs.mcp_session_token_serializer("k"), token) # want `Vault._claims \(reached from route /peek\) builds the MCP session token signer per request`

    def mcp_allowed_tools_for_session(self, seed_body):
        self._signer = make_signer(seed_body["secret"]) # want `Vault.mcp_allowed_tools_for_session \(mcp_allowed_tools_for_session\) builds the MCP session token signer per request`
        return None

    async def verify(self, body):
        make_signer("k") # want `Vault.verify \(route /verify\) builds`
        return {}


if __name__ == "__main__":
    Vault.run_webserver()
