from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# Each answer for a missing board becomes `raise ResourcesSessionLostError(...)`
# with the message it carried, imported into the framework's from-import.
class Board(SimpleResourcesServer):  # want "GL302"
    def setup_webserver(self):
        app = super().setup_webserver()
        for name in ("move", "undo", "peek", "look", "spin", "flip"):
            app.post("/" + name)(getattr(self, name))
        return app

    async def seed_session(self, request: Request, body):
        self.boards[request.session[SESSION_ID_KEY]] = {}  # want "GL322"

    async def move(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.boards:
            raise HTTPException(status_code=400, detail="Session not initialized. Call /seed_session first.")  # want "GL309 Board.move raises HTTP 400"
        return {}

    async def undo(self, request: Request, body):
        board = self.boards.get(request.session[SESSION_ID_KEY])
        if board is None:
            return "no such board"  # want "GL309 Board.undo answers with the string"
        return board

    async def peek(self, request: Request, body):
        board = self.boards.get(request.session[SESSION_ID_KEY])
        if not board:  # want +1 "GL309 Board.peek answers with an observation"
            return {
                "error": f"no board for {body.name}",
                "result": None,
            }
        return board

    async def look(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            return JSONResponse(status_code=409, content={"detail": "gone"})  # want "GL309 Board.look answers with HTTP 409"
        return {}

    async def spin(self, request: Request, body):
        return self._board(request.session[SESSION_ID_KEY])

    async def flip(self, request: Request, body):
        try:
            board = self.boards[request.session[SESSION_ID_KEY]]
        except KeyError as e:
            raise HTTPException(422, "unknown board") from e  # want "GL309 Board.flip raises HTTP 422"
        return board

    def _board(self, sid):
        board = self.boards.get(sid)
        if board is None:
            raise KeyError(f"no board for {sid}")  # want `GL309 Board._board \(reached from the tool route spin\) raises KeyError`
        return board


if __name__ == "__main__":
    Board.run_webserver()
