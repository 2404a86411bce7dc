from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# Read through a helper: where the guard belongs is the author's call. No fix.
class Helper(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 1  # want "GL322"

    def _won(self, sid):
        return self.games.get(sid, 0)

    async def verify(self, request: Request, body):  # want "GL307 Helper.verify reads the per-session state self.games \\(through Helper._won\\)"
        return BaseVerifyResponse(**body.model_dump(), reward=float(self._won(request.session[SESSION_ID_KEY])))


if __name__ == "__main__":
    Helper.run_webserver()
