from fastapi import Request
from nemo_gym.base_resources_server import (
    ResourcesSeedSessionRequest,
    ResourcesSessionFences,
    SimpleResourcesServer,
)


# The server has its own release by the id it is given, and fences: the
# close calls the release and fences with them; the seed checks them
# already.
class Kiln(SimpleResourcesServer):  # want "GL302 Kiln keeps per-session state in seed_session"
    def model_post_init(self, context):
        super().model_post_init(context)
        self._session_fences = ResourcesSessionFences(self.config.session_close_retry_window_seconds)

    async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest):
        self._session_fences.raise_if_fenced(body.resources_session_id)
        self.ovens.setdefault(body.resources_session_id, self.pool.light())
        return None

    async def _cool_down(self, sid):
        oven = self.ovens.pop(sid, None)
        if oven is not None:
            await oven.shutdown()

    async def verify(self, request: Request, body):
        await self._cool_down(request.session["session_id"])
        return {"reward": 1.0}


if __name__ == "__main__":
    Kiln.run_webserver()
