from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Base(SimpleResourcesServer):
    _locks: ResourcesSessionLocks = ResourcesSessionLocks()
    _fences: ResourcesSessionFences = None

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        previous = self.games.pop(session_id, None)  # related "the session's record is read here"
        if previous is not None:
            await previous.stop()  # want "GL310 Base.seed_session reads self.games.pop\\(session_id\\).*hold `async with self._locks.locked\\(session_id\\):`"
        self.games[session_id] = await self.start(body)  # related "and written here, after the await"

    async def close_resources_session(self, body):  # want "GL303 Base.close_resources_session belongs to a server"
        self._fences.raise_if_fenced(body.resources_session_id)
        self.games[body.resources_session_id] = await self.final(body)  # want `GL310 .*reads the fence, self._fences.raise_if_fenced\(body.resources_session_id\)`  # related "per-session state self.games is written here, in"
