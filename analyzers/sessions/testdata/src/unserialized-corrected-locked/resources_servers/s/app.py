from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse
import asyncio


class S(SimpleResourcesServer):
    _locks: ResourcesSessionLocks = ResourcesSessionLocks()
    _lock = asyncio.Lock()

    async def seed_session(self, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            if sid in self.sandboxes:
                return None
            self.sandboxes[sid] = await self.provider.create(body.task_data)
        return None

    async def close_resources_session(self, body):  # want "GL303 S.close_resources_session releases the session's"
        async with self._lock:
            sandbox = self.sandboxes.get(body.resources_session_id)
            await sandbox.close()
            del self.sandboxes[body.resources_session_id]


if __name__ == "__main__":
    S.run_webserver()
