"""Look-alikes of GL304 that must stay silent."""

import logging

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionResponse,
    ResourcesSessionFences,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

logger = logging.getLogger(__name__)


class ReraiseServer(SimpleResourcesServer):
    sandboxes: dict = {}
    workers: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.sandboxes[body.resources_session_id] = object()
        return None

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        try:
            await self.sandboxes[sid].kill()
        except KeyError:
            pass
        except Exception:
            logger.exception("could not kill the sandbox of %s", sid)
            raise
        self.sandboxes.pop(sid, None)
        await self._stop_workers(sid)
        self._fences.fence(sid, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=sid)

    async def _stop_workers(self, sid):
        failures = []
        for worker in self.workers.get(sid, []):
            try:
                await worker.terminate()
            except Exception as e:
                failures.append(e)
        if failures:
            raise RuntimeError(f"{len(failures)} workers did not stop")

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    ReraiseServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ReraiseServer.run_webserver()
