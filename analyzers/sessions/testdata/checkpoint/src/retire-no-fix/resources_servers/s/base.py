import uuid

from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer

SESSIONS = {}


# The seed mints the key: popping the session's id releases nothing.
class Desk(SimpleResourcesServer):  # want "GL317 Desk keeps per-session state"
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        desk_id = uuid.uuid4().hex
        self.desks[desk_id] = body.resources_session_id
        return {"desk_id": desk_id}

    async def close_resources_session(self, body):
        for desk_id, sid in list(self.desks.items()):
            if sid == body.resources_session_id:
                del self.desks[desk_id]
        self._fences.fence(body.resources_session_id, None)


# A key made from the session's id.
class Keyed(SimpleResourcesServer):  # want "GL317 Keyed keeps per-session state"
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.grids.setdefault(f"grid-{body.resources_session_id}", [])
        return None

    async def close_resources_session(self, body):
        self.grids.pop(f"grid-{body.resources_session_id}", None)
        self._fences.fence(body.resources_session_id, None)


# A module-level map: not on the receiver.
class Module(SimpleResourcesServer):  # want "GL317 Module keeps per-session state"
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        SESSIONS.setdefault(body.resources_session_id, [])
        return None

    async def close_resources_session(self, body):
        SESSIONS.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)


# A return in the override could skip what the fix would add at its end.
class Early(SimpleResourcesServer):
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(body.resources_session_id, {})
        return None

    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)

    async def retire_session_state(self, session_id):  # want "GL317 Early.retire_session_state releases nothing"
        if session_id not in self.envs:
            return
        print(session_id)


# A synchronous override cannot await the server's own release.
class Sync(SimpleResourcesServer):
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.ovens.setdefault(body.resources_session_id, object())
        return None

    async def _cool_down(self, sid):
        oven = self.ovens.pop(sid, None)
        if oven is not None:
            await oven.shutdown()

    async def close_resources_session(self, body):
        await self._cool_down(body.resources_session_id)
        self._fences.fence(body.resources_session_id, None)

    def retire_session_state(self, session_id):  # want "GL317 Sync.retire_session_state releases nothing"
        print(session_id)
