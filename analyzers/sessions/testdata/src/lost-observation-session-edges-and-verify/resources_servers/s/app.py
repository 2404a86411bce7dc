from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/end_session")(self.end_session)
        app.post("/reset")(self.reset)
        return app

    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    async def end_session(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise HTTPException(status_code=400, detail="no session")
        del self.sessions[request.session[SESSION_ID_KEY]]

    async def reset(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return "fresh"
        return "again"

    def _score(self, sid):
        if sid not in self.sessions:
            raise HTTPException(status_code=400, detail="no session")
        return 1.0

    async def verify(self, request: Request, body):
        return {"reward": self._score(request.session[SESSION_ID_KEY])}  # want "GL306 S.verify calls S._score, which raises"


if __name__ == "__main__":
    S.run_webserver()
