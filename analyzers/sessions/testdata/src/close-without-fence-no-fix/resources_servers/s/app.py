from fastapi import Request
from nemo_gym.base_resources_server import (
    BaseSeedSessionRequest,
    ResourcesCloseSessionRequest,
    ResourcesSeedSessionRequest,
    SimpleResourcesServer,
)


# The close's body is not the framework's request: it may carry no
# episode_id.
class Untyped(SimpleResourcesServer):
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, {})
        return None

    async def close_resources_session(self, body):  # want "GL303 Untyped"
        self.envs.pop(body.resources_session_id, None)


# The seed also takes the Agent's legacy body, which has no
# resources_session_id to check.
class Either(SimpleResourcesServer):
    async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest | BaseSeedSessionRequest):
        self.envs.setdefault(request.session["session_id"], {})
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Either"
        self.envs.pop(body.resources_session_id, None)


# The seed awaits between the check the fix would add and its write,
# with no lock: a race GL310 would report. A lock is not mechanical.
class Racy(SimpleResourcesServer):
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, await self.pool.get())
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Racy"
        self.envs.pop(body.resources_session_id, None)


# A return before the release would skip the fence.
class Early(SimpleResourcesServer):
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, {})
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Early"
        if body.resources_session_id not in self.envs:
            return None
        self.envs.pop(body.resources_session_id)


# _fences already names something else.
class Taken(SimpleResourcesServer):
    _fences: list = []

    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, {})
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Taken"
        self.envs.pop(body.resources_session_id, None)


# The seed is a base's: a fix would edit two classes.
class Seeder(SimpleResourcesServer):
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, {})
        return None


class Closer(Seeder):
    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Closer"
        self.envs.pop(body.resources_session_id, None)


# Nothing in the close is seen releasing: no fence without a release.
class Keeper(SimpleResourcesServer):
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        self.envs.setdefault(body.resources_session_id, {})
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Keeper"
        return await super().close_resources_session(body)


if __name__ == "__main__":
    Untyped.run_webserver()
