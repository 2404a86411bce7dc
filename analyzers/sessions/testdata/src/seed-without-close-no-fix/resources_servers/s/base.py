import uuid

from fastapi import Request
from nemo_gym.base_resources_server import BaseSeedSessionRequest, ResourcesSeedSessionRequest, SimpleResourcesServer


# The seed mints the key it hands back: popping the session's id would
# release nothing.
class Desk(SimpleResourcesServer):  # want "GL302 Desk keeps"
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        desk_id = uuid.uuid4().hex
        self.desks[desk_id] = []
        return {"desk_id": desk_id}


# The key is made from the session's id.
class Keyed(SimpleResourcesServer):  # want "GL302 Keyed keeps"
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.grids.setdefault(f"{body.resources_session_id}-grid", [])
        return None


# The Agent's legacy body: no resources_session_id for the seed to check.
class Legacy(SimpleResourcesServer):  # want "GL302 Legacy keeps"
    async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
        self.games.setdefault(request.session["session_id"], [])
        return None


# Reads the record, awaits, then writes it: with a close to interleave
# with, GL310 would report the seed. A lock is not mechanical.
class Racy(SimpleResourcesServer):  # want "GL302 Racy keeps"
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        if body.resources_session_id in self.boxes:
            return None
        self.boxes[body.resources_session_id] = await self.pool.start()
        return None


# A method that looks like a close: the help says to serve it.
class AdHoc(SimpleResourcesServer):  # want "GL302 AdHoc keeps .*/close_session does not call AdHoc.end_session"
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.games.setdefault(body.resources_session_id, [])
        return None

    async def end_session(self, body):
        self.games.pop(body.resources_session_id, None)


# Two servers share the seed, one keeps a container of its own: one close
# in the base cannot name it.
class Shared(SimpleResourcesServer):  # want "GL302 Shared, Wide .seed_session of Shared. keep"
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.games.setdefault(body.resources_session_id, [])
        self.more(body.resources_session_id)
        return None

    def more(self, sid):
        pass


class Wide(Shared):
    def more(self, sid):
        self.extra.setdefault(sid, 0)
