from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# GL309 findings whose answer a 404 would not replace as it stands: no fix
# (the golden is the file).
class Board(SimpleResourcesServer):  # want "GL302"
    def setup_webserver(self):
        app = super().setup_webserver()
        for name in ("move", "undo", "peek", "spin", "look", "grow"):
            app.post("/" + name)(getattr(self, name))
        return app

    async def seed_session(self, request: Request, body):
        self.boards[request.session[SESSION_ID_KEY]] = {}  # want "GL322"

    # A helper verify calls too: a 404 there would answer verify.
    def _state(self, sid):
        if sid not in self.boards:
            raise HTTPException(status_code=400, detail="no board")  # want "GL309 Board._state \\(reached from the tool route move\\) raises HTTP 400"
        return self.boards[sid]

    async def move(self, request: Request, body):
        return self._state(request.session[SESSION_ID_KEY])

    async def verify(self, request: Request, body):
        try:
            board = self._state(request.session[SESSION_ID_KEY])
        except HTTPException:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))
        return BaseVerifyResponse(**body.model_dump(), reward=float(len(board)))

    # Inside a try whose handler would catch the 404.
    async def undo(self, request: Request, body):
        try:
            if request.session[SESSION_ID_KEY] not in self.boards:
                return "no such board"  # want "GL309 Board.undo answers with the string"
            return {}
        except Exception:
            return "failed"

    # A helper called inside a try of the route.
    def _board(self, sid):
        board = self.boards.get(sid)
        if board is None:
            raise KeyError(f"no board for {sid}")  # want "GL309 Board._board \\(reached from the tool route spin\\) raises KeyError"
        return board

    async def spin(self, request: Request, body):
        try:
            return self._board(request.session[SESSION_ID_KEY])
        except KeyError:
            return "spun nothing"

    # An HTTPException with headers, which the framework's error does not take.
    async def peek(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            raise HTTPException(status_code=400, detail="no board", headers={"Retry-After": "1"})  # want "GL309 Board.peek raises HTTP 400"
        return {}

    # A comment in the answer, which the replacement would drop.
    async def look(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:  # want +1 "GL309 Board.look answers with an observation"
            return {
                # the agent reads this key
                "error": "no board",
            }
        return {}

    # A lost session answered as a new one: no statement to replace.
    async def grow(self, request: Request, body):
        board = self.boards.setdefault(request.session[SESSION_ID_KEY], {})  # want "GL309 Board.grow answers a lost session as a new one"
        return board


if __name__ == "__main__":
    Board.run_webserver()
