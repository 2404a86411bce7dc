from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# The key is a call: a guard would call it again. No fix.
class Computed(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[str(request.session[SESSION_ID_KEY])] = 1  # want "GL322"

    async def verify(self, request: Request, body):  # want "GL307 Computed.verify reads the per-session state self.games"
        won = self.games.get(str(request.session[SESSION_ID_KEY]), 0)
        return BaseVerifyResponse(**body.model_dump(), reward=float(won))


if __name__ == "__main__":
    Computed.run_webserver()
