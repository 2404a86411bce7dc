from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            x = R(**lost_session_verification("gone"))
            return R(**body.model_dump(), **other("gone"))
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)


if __name__ == "__main__":
    S.run_webserver()
