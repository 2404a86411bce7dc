from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        sid = str(body.resources_session_id)
        self.games.__setitem__(sid, body.task_data)  # want "GL322 S.seed_session writes self.games.__setitem__\\(sid, ...\\) without first checking"

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    S.run_webserver()
