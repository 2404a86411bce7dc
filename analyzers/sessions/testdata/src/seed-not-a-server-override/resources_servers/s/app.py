from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


async def seed_session(request, body):
    raise ValueError("not an override")


class Helper:
    async def seed_session(self, request, body):
        raise ValueError("not a server")


class S(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    S.run_webserver()
