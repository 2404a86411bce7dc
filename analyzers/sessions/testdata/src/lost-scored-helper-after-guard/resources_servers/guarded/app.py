from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


class Guarded(SimpleResourcesServer):  # want "GL302 Guarded keeps per-session state"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = {"moves": 0}  # want "GL322 Guarded.seed_session writes"

    def _game(self, sid):
        if sid not in self.games:
            raise HTTPException(status_code=400, detail="no game")
        return self.games[sid]

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.games:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("game is gone")))
        game = self._game(sid)  # after the test that returns the masked sample: not reported
        return BaseVerifyResponse(**body.model_dump(), reward=float(game["moves"] < 10))


if __name__ == "__main__":
    Guarded.run_webserver()
