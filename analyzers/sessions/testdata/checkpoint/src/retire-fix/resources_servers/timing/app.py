import uuid

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# Keyed by the cookie's id, with a minted fallback no id would release:
# the pop by the session's id is still the release (safe).
class Timing(SimpleResourcesServer):  # want "GL317 Timing keeps per-session state"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/tool")(self.tool)
        return app

    async def tool(self, request: Request):
        session_id = request.session.get(SESSION_ID_KEY)
        if not session_id:
            session_id = str(uuid.uuid4())
        if session_id not in self.timings:
            self.timings[session_id] = []
        self.timings[session_id].append(1.0)
        return {}

    async def verify(self, request: Request, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    Timing.run_webserver()
