import asyncio
from typing import Any

from fastapi import Request
from nemo_gym.base_resources_server import (
    ResourcesCloseSessionRequest,
    ResourcesSeedSessionRequest,
    ResourcesSessionLocks,
    SimpleResourcesServer,
)


# Its own model_post_init gets the fences after its super() call; the
# seed takes the session's lock first, so the check goes inside it; the
# close releases through a helper, inside the lock: the fence follows the
# helper's call there.
class Boxes(SimpleResourcesServer):
    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        self._locks = ResourcesSessionLocks()

    async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest):
        async with self._locks.locked(body.resources_session_id):
            if body.resources_session_id in self.boxes:
                return None
            self.boxes[body.resources_session_id] = await self.provider.start()
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Boxes.close_resources_session releases"
        async with self._locks.locked(body.resources_session_id):
            await self._stop(body.resources_session_id)
        return None

    async def _stop(self, sid):
        box = self.boxes.pop(sid, None)
        if box is not None:
            await box.stop()


if __name__ == "__main__":
    Boxes.run_webserver()
