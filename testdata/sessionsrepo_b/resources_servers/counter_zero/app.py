"""Scores a lost session as 0 (GL306) and answers a tool call for it with HTTP 400 (GL309)."""

from fastapi import HTTPException

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class CounterServer(SimpleResourcesServer):
    counters: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)
        self._locks = ResourcesSessionLocks()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/increment")(self.increment)
        return app

    async def seed_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self._fences.raise_if_fenced(body.resources_session_id)
            self.counters[body.resources_session_id] = 0
        return None

    async def close_resources_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self.counters.pop(body.resources_session_id, None)
            self._fences.fence(body.resources_session_id, body.episode_id)
        return None

    async def increment(self, body):
        sid = body.resources_session_id
        if sid not in self.counters:
            raise HTTPException(status_code=400, detail="Session not initialized. Please call seed_session first.")
        self.counters[sid] += body.count
        return {"count": self.counters[sid]}

    async def verify(self, body) -> BaseVerifyResponse:
        sid = body.resources_session_id
        if sid not in self.counters:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=float(self.counters[sid] == body.expected))


if __name__ == "__main__":
    CounterServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CounterServer.run_webserver()
