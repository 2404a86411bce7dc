from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        sid = body.resources_session_id
        sandbox = await self.provider.create(body.task_data)
        if sid in self.sandboxes:
            return None
        self.sandboxes[sid] = sandbox

    async def close_resources_session(self, body):
        sandbox = self.sandboxes.pop(body.resources_session_id, None)
        if sandbox is not None:
            await sandbox.close()
        self.fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    S.run_webserver()
