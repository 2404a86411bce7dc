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

    def _get_state(self, request):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:  # related "this test finds the session's state missing"
            raise HTTPException(status_code=400, detail="Session not initialized.")  # related "S._get_state raises here"
        return self.sessions[sid]

    async def verify(self, request: Request, body):
        state = self._get_state(request)  # want `GL306 S.verify calls S._get_state, which raises HTTPException\(400\) when`
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])


if __name__ == "__main__":
    S.run_webserver()
