from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        self.count = 1
        return None


if __name__ == "__main__":
    S.run_webserver()
