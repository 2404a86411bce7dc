"""GL304: a close that logs the failure of releasing and carries on."""

import contextlib
import logging

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionResponse,
    ResourcesSessionFences,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

logger = logging.getLogger(__name__)


class SwallowServer(SimpleResourcesServer):
    sandboxes: dict = {}
    containers: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.sandboxes[body.resources_session_id] = object()
        return None

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        sandbox = self.sandboxes.pop(sid, None)
        if sandbox is not None:
            try:
                await sandbox.kill()
            except Exception as e:
                logger.warning("could not kill the sandbox of %s: %s", sid, e)
        await self._stop_container(sid)
        with contextlib.suppress(Exception):
            await self.pool.release(sid)
        self._fences.fence(sid, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=sid)

    async def _stop_container(self, sid):
        try:
            await self.containers[sid].shutdown()
        except:
            return

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    SwallowServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SwallowServer.run_webserver()
