"""The corrected shapes: nothing here is reported by GL306-GL310.

verify merges lost_session_verification over the request with |, a tool call for a lost session
raises ResourcesSessionLostError, and seed and close hold the session's lock across their awaits.
The framework is reached through a module alias.
"""

import nemo_gym.base_resources_server as brs
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MazeServer(brs.SimpleResourcesServer):
    mazes: dict = {}

    def model_post_init(self, context):
        self._fences = brs.ResourcesSessionFences(60.0)
        self._locks = brs.ResourcesSessionLocks()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/move")(self.move)
        return app

    async def seed_session(self, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            self._fences.raise_if_fenced(sid)
            if sid in self.mazes:
                return None
            self.mazes[sid] = await self._build(body.task_data)
        return None

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            maze = self.mazes.get(sid)
            if maze is not None:
                await maze.close()
            self.mazes.pop(sid, None)
            self._fences.fence(sid, body.episode_id)
        return None

    async def _build(self, task_data):
        return object()

    async def move(self, body):
        maze = self.mazes.get(body.resources_session_id)
        if maze is None:
            raise brs.ResourcesSessionLostError("the maze session is not seeded or was closed")
        return {"observation": maze.move(body.direction)}

    async def verify(self, body) -> brs.BaseVerifyResponse:
        maze = self.mazes.get(body.resources_session_id)
        if maze is None:
            return brs.BaseVerifyResponse(**(body.model_dump() | brs.lost_session_verification("maze is gone")))
        return brs.BaseVerifyResponse(**body.model_dump(), reward=float(maze.solved))


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
