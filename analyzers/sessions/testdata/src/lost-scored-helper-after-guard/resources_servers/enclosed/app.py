from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


class Enclosed(SimpleResourcesServer):  # want "GL302 Enclosed keeps per-session state"
    async def seed_session(self, request: Request, body):
        self.boards[request.session[SESSION_ID_KEY]] = []  # want "GL322 Enclosed.seed_session writes"

    def _board(self, sid):
        if sid not in self.boards:
            raise KeyError(sid)
        return self.boards[sid]

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid in self.boards:
            board = self._board(sid)  # under the test that finds it: not reported
            return BaseVerifyResponse(**body.model_dump(), reward=float(len(board)))
        return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("board is gone")))


if __name__ == "__main__":
    Enclosed.run_webserver()
