from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    async def seed_session(self, body):
        template = self.sandboxes.get(body.task_id)
        copy = await template.clone()
        self.sandboxes[body.resources_session_id] = copy


if __name__ == "__main__":
    S.run_webserver()
