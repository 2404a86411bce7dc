from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse
from fastapi.responses import JSONResponse


class S(SimpleResourcesServer):  # want "GL302 S keeps per-session state in seed_session"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/look")(self.look)
        app.add_api_route("/move", self.move, methods=["POST"])
        app.post("/wait")(self.wait)
        return app

    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # want "GL322 .*seed_session writes .* without first checking for an existing record"
        return None

    async def look(self, request: Request):
        state = self.sessions.get(request.session[SESSION_ID_KEY])
        if state is None:
            return "Session not initialized."  # want `GL309 S.look answers with the string "Session not initialized."`
        return state["view"]

    async def move(self, request: Request, body):
        if request.session[SESSION_ID_KEY] in self.sessions:
            return MoveResponse(output=self.sessions[request.session[SESSION_ID_KEY]]["n"])
        else:
            return MoveResponse(output="", error="no active session")  # want "GL309 S.move answers with an observation \\(`MoveResponse\\(output=\"\", error=\"no active session\"\\)`\\).*\\(the else of `request.session\\[SESSION_ID_KEY\\] in self.sessions`\\)"

    async def wait(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return JSONResponse(status_code=409, content={"detail": "gone"})  # want "GL309 S.wait answers with HTTP 409"
        return JSONResponse(status_code=200, content={})


if __name__ == "__main__":
    S.run_webserver()
