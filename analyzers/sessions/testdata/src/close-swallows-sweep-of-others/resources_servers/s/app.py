import logging
import time

from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer

logger = logging.getLogger(__name__)


class Pods(SimpleResourcesServer):
    """A close that also sweeps other, expired sessions and logs their failures: not the close's own."""

    def model_post_init(self, context):
        self.pods = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.pods[body.resources_session_id] = (object(), time.monotonic())

    async def close_resources_session(self, body):
        for sid, (pod, started) in list(self.pods.items()):
            if time.monotonic() - started > 3600:
                try:
                    await pod.terminate()
                except Exception:
                    logger.exception("could not terminate an expired pod")
        pod, _ = self.pods.pop(body.resources_session_id, (None, 0))
        if pod is not None:
            await pod.terminate()
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    Pods.run_webserver()
