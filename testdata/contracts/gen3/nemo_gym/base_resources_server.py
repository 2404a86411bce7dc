from nemo_gym.server_runtime.sessions import (
    RESERVED_MCP_TOOL_NAMES,
    ResourcesSeedRejectedError,
    ResourcesSessionConflictError,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    ResourcesSessionLostError,
    lost_session_verification,
)
from nemo_gym.server_utils import BaseServer, SimpleServer

__all__ = [
    "RESERVED_MCP_TOOL_NAMES",
    "ResourcesSeedRejectedError",
    "ResourcesSessionConflictError",
    "ResourcesSessionFences",
    "ResourcesSessionLocks",
    "ResourcesSessionLostError",
    "lost_session_verification",
]


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        app.post("/close_session")(self.close_resources_session)
        return app

    async def seed_session(self, request, body):
        return {}

    async def verify(self, request, body):
        raise NotImplementedError

    async def close_resources_session(self, body):
        return {}

    async def checkpoint_session_starts(self, body):
        return None

    async def checkpoint_verify(self, body):
        return None

    async def checkpoint_session_ended(self, body):
        return None

    def register_protocol_routes(self, app):
        return None
