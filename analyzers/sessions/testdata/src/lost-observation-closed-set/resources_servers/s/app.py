from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSessionConflictError, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Maze(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        return app

    def model_post_init(self, context):
        self.mazes = {}
        self._closed = set()

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        if sid in self._closed:
            raise ResourcesSessionConflictError("closed")
        self.mazes[sid] = object()

    async def step(self, request: Request, body):
        sid = body.resources_session_id
        if sid in self._closed:  # related "this test finds the session's state missing"
            raise HTTPException(status_code=409, detail="session closed")  # want `GL309 Maze.step raises HTTP 409 when the session was closed \(.sid in self._closed.\)`
        return {}

    async def close_resources_session(self, body):
        self.mazes.pop(body.resources_session_id, None)
        self._closed.add(body.resources_session_id)


if __name__ == "__main__":
    Maze.run_webserver()
