from fastapi import HTTPException, Request, status
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# On a framework without ResourcesSessionLostError the fix answers with
# HTTP 404: an HTTPException keeps its detail and changes its status, written
# as the file writes statuses.
class Board(SimpleResourcesServer):  # want "GL317"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/move")(self.move)
        app.post("/undo")(self.undo)
        return app

    async def seed_session(self, request: Request, body):
        self.boards.setdefault(request.session[SESSION_ID_KEY], {})

    async def move(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            raise HTTPException(status_code=status.HTTP_400_BAD_REQUEST, detail="no board")  # want "GL309 Board.move raises HTTP 400"
        return {}

    async def undo(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.boards:
            raise HTTPException(400, "no board")  # want "GL309 Board.undo raises HTTP 400"
        return {}

    async def close_resources_session(self, body):  # want "GL303"
        self.boards.pop(body.resources_session_id, None)


if __name__ == "__main__":
    Board.run_webserver()
