from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        try:
            raise KeyError("k")
        except LookupError:
            return None
        try:
            raise ValueError("v")
        except Exception:
            return None
        return None

if __name__ == "__main__":
    S.run_webserver()
