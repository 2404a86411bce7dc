from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        if body.x:
            raise RuntimeError("no sandbox")
        if body.y:
            raise ConnectionError()
        if body.z:
            raise TimeoutError
        raise OSError(5)

if __name__ == "__main__":
    S.run_webserver()
