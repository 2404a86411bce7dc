from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Helper(SimpleResourcesServer):
    # A retire that delegates to a helper that releases.
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[body.resources_session_id] = object()
        return None

    async def close_resources_session(self, body):
        self._drop(body.resources_session_id)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def retire_session_state(self, session_id):
        self._drop(session_id)

    def _drop(self, session_id):
        env = self.envs.pop(session_id, None)
        if env is not None:
            env.close()


class ThroughClose(Helper):
    # A retire that closes the session the way the close does.
    async def retire_session_state(self, session_id):
        await self.close_resources_session(ResourcesCloseSessionRequest(resources_session_id=session_id))


class HeldObject(SimpleResourcesServer):
    # The state lives in an object the server holds.
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.games[body.resources_session_id] = self.pool.acquire()
        return None

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def retire_session_state(self, session_id):
        self.pool.forget(session_id)


class Sandboxes(SimpleResourcesServer):
    # Released by a call that says it releases.
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.boxes[body.resources_session_id] = object()
        return None

    async def close_resources_session(self, body):
        self.boxes.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def retire_session_state(self, session_id):
        box = self.boxes.get(session_id)
        if box is not None:
            await box.terminate()
