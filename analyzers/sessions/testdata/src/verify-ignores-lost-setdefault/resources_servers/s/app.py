from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # related "per-session state self.sessions is written here, in"  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    async def verify(self, request: Request, body):  # want "GL307 S.verify reads the per-session state self.sessions"
        # setdefault makes an empty record for a lost session: the verify scores it.
        state = self.sessions.setdefault(request.session[SESSION_ID_KEY], {"n": 0})
        return BaseVerifyResponse(**body.model_dump(), reward=float(state["n"]))


if __name__ == "__main__":
    S.run_webserver()
