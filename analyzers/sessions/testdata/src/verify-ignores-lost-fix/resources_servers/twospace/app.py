from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# Two-space indentation stays two-space, single quotes stay single.
class Two(SimpleResourcesServer):  # want "GL302"
  async def seed_session(self, request: Request, body):
    self.games[request.session[SESSION_ID_KEY]] = 1  # want "GL322"

  async def verify(self, request: Request, body):  # want "GL307 Two.verify reads the per-session state self.games"
    won = self.games.get(request.session[SESSION_ID_KEY], 0)
    return BaseVerifyResponse(**body.model_dump(), reward=float(won))


if __name__ == '__main__':
  Two.run_webserver()
