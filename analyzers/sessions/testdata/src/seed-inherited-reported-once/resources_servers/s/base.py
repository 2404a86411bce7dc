from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Base(SimpleResourcesServer):
    async def seed_session(self, request, body):
        raise ValueError("bad")  # want "GL301 Base.seed_session raises ValueError"
