"""A repository base class whose verify reads the ladder through a helper and never answers a lost
session with lost_session_verification (GL307, reported here, for the server in app.py)."""

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    SimpleResourcesServer,
)


class LadderBase(SimpleResourcesServer):
    ladders: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)
        self._locks = ResourcesSessionLocks()

    async def seed_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self._fences.raise_if_fenced(body.resources_session_id)
            self.ladders[body.resources_session_id] = {"rung": 0}
        return None

    async def close_resources_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self.ladders.pop(body.resources_session_id, None)
            self._fences.fence(body.resources_session_id, body.episode_id)
        return None

    def _rung(self, sid):
        return self.ladders[sid]["rung"]

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(**body.model_dump(), reward=self._rung(body.resources_session_id) / 10)
