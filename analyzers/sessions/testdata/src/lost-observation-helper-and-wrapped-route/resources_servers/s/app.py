from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/a")(log_calls(self.tool_a))
        return app

    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    def _get_state(self, request):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            raise HTTPException(status_code=400, detail="Session not initialized. Call /seed_session first.")  # want `GL309 S._get_state \(reached from the tool route tool_a\) raises HTTP 400`
        return self.sessions[sid]

    async def tool_a(self, request: Request):
        return self._get_state(request)["n"]

    async def tool_b(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, "no session")  # want "GL309 S.tool_b raises HTTP 422"
        return self._get_state(request)["n"]


if __name__ == "__main__":
    S.run_webserver()
