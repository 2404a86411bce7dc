from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    _locks: ResourcesSessionLocks = ResourcesSessionLocks()

    async def seed_session(self, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            if sid in self.games:
                return None
            self.games[sid] = await self.make(body.task_data)

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    S.run_webserver()
