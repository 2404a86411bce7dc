from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        sid = body.resources_session_id
        if sid in self._closed:
            raise HTTPException(status_code=409, detail="closed")
        self.games[sid] = body.task_data

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._closed.add(body.resources_session_id)


if __name__ == "__main__":
    S.run_webserver()
