from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# The raise is in a helper that a tool route shares: the verify must test for
# the state first, which is no replacement of one statement. No fix.
class Helper(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    def _game(self, sid):
        if sid not in self.games:
            raise HTTPException(status_code=400, detail="no game")
        return self.games[sid]

    async def verify(self, request: Request, body):
        game = self._game(request.session[SESSION_ID_KEY])  # want "GL306 Helper.verify calls Helper._game"
        return BaseVerifyResponse(**body.model_dump(), reward=float(game))


if __name__ == "__main__":
    Helper.run_webserver()
