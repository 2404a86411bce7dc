from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/{tool_name}")(self.route_tool_call)
        return app

    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # related "per-session state self.sessions is written here, in"  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    async def route_tool_call(self, tool_name: str, body, request: Request):
        session_id = request.session[SESSION_ID_KEY]
        if session_id not in self.sessions:  # related "this test finds the session's state missing"
            raise HTTPException(status_code=400, detail="Session not initialized. Please call seed_session first.")  # want "GL309 S.route_tool_call raises HTTP 400 when the session's state self.sessions is missing \\(`session_id not in self.sessions`\\).*raise ResourcesSessionLostError\\(detail\\) instead \\(HTTP 404"
        return self.sessions[session_id]


if __name__ == "__main__":
    S.run_webserver()
