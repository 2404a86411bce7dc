from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# The read is in a with block: the guard goes before it, at its indentation.
class Locked(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.boards[body.resources_session_id] = []  # want "GL322"

    async def verify(self, request: Request, body):  # want "GL307 Locked.verify reads the per-session state self.boards"
        async with self._locks.locked(body.resources_session_id):
            board = self.boards[body.resources_session_id]
            return BaseVerifyResponse(**body.model_dump(), reward=float(len(board)))


if __name__ == "__main__":
    Locked.run_webserver()
