from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    def setup_webserver(self):
        app = super().setup_webserver()
        for name in ("x", "y"):
            app.add_api_route(f"/run_{name}", self._make_handler(name), methods=["POST"])
        return app

    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    def _make_handler(self, name):
        async def handler(request: Request, body):
            metadata = self.sessions.get(request.session.get(SESSION_ID_KEY))
            if not metadata:
                raise HTTPException(status_code=400, detail="Session not initialized.")  # want `GL309 handler \(built by S._make_handler\) raises HTTP 400`
            return metadata[name]

        return handler


if __name__ == "__main__":
    S.run_webserver()
