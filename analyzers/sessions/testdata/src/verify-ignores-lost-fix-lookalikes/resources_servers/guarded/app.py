from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# The first read runs only under a test of the request: a guard
# before it would not answer every lost session, one elsewhere is no
# mechanical edit. No fix.
class Guarded(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 1  # want "GL322"

    async def verify(self, request: Request, body):  # want "GL307 Guarded.verify reads the per-session state self.games"
        reward = 0.0
        if body.scored:
            reward = float(self.games.get(request.session[SESSION_ID_KEY], 0))
        return BaseVerifyResponse(**body.model_dump(), reward=reward)


if __name__ == "__main__":
    Guarded.run_webserver()
