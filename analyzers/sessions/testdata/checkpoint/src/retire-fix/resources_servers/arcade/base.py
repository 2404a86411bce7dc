from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# A shared base whose retire releases its own container.
class Arcade(SimpleResourcesServer):
    def register_protocol_routes(self, app):
        app.post("/reset")(self._reset)

    async def _reset(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.frames[sid] = await self.start(sid, body)
        return {}

    async def start(self, sid, body):
        return None

    async def retire_session_state(self, session_id):
        self.frames.pop(session_id, None)
