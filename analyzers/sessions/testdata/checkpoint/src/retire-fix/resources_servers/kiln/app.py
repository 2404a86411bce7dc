from fastapi import Request
from nemo_gym.base_resources_server import BaseSeedSessionRequest, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


# The server's own release by the id it is given: the override calls it
# (unsafe: it stops what the session holds).
class Kiln(SimpleResourcesServer):  # want "GL317 Kiln keeps per-session state" "GL302 Kiln"
    async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
        self.ovens.setdefault(request.session[SESSION_ID_KEY], await self.pool.light())
        return None

    async def _cool_down(self, sid):
        oven = self.ovens.pop(sid, None)
        if oven is not None:
            await oven.shutdown()

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.ovens:
            return body.model_dump() | lost_session_verification("cold")
        await self._cool_down(sid)
        return {"reward": 1.0}


if __name__ == "__main__":
    Kiln.run_webserver()
