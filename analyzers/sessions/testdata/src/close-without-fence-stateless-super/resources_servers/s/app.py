from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def close_resources_session(self, body):
        return await super().close_resources_session(body)


if __name__ == "__main__":
    S.run_webserver()
