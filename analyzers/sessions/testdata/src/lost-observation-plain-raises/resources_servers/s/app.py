from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionLostError, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Board(SimpleResourcesServer):  # want "GL302"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/move")(self.move)
        app.post("/undo")(self.undo)
        app.post("/peek")(self.peek)
        return app

    async def seed_session(self, request: Request, body):
        self.boards[request.session[SESSION_ID_KEY]] = {}  # want "GL322 .*seed_session writes .* without first checking for an existing record"

    def _board(self, sid):
        board = self.boards.get(sid)
        if board is None:
            raise KeyError(f"no board for {sid}")  # want `GL309 Board._board \(reached from the tool route move\) raises KeyError when the session's state self.boards is missing \(.*\): FastAPI answers it with HTTP 500 help: raise ResourcesSessionLostError`
        return board

    async def move(self, request: Request, body):
        return self._board(request.session[SESSION_ID_KEY])

    async def undo(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            raise RuntimeError("no such session")  # want `GL309 Board.undo raises RuntimeError when`
        return {}

    async def peek(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            raise ResourcesSessionLostError("the board is gone")
        return {}


if __name__ == "__main__":
    Board.run_webserver()
