import asyncio

from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Pods(SimpleResourcesServer):
    """A dict of locks of its own, behind a helper that returns the session's lock: serialized."""

    def model_post_init(self, context):
        self.pods = {}
        self._pod_locks = {}
        self._fences = ResourcesSessionFences(600)

    def _session_lock(self, sid):
        return self._pod_locks.setdefault(sid, asyncio.Lock())

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        async with self._session_lock(sid):
            self._fences.raise_if_fenced(sid)
            if sid not in self.pods:
                pod = await self.spawn()
                self.pods[sid] = pod

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        async with self._session_lock(sid):
            pod = self.pods.pop(sid, None)
            if pod is not None:
                await pod.stop()
            self._fences.fence(sid, None)

    async def spawn(self):
        return object()


if __name__ == "__main__":
    Pods.run_webserver()
