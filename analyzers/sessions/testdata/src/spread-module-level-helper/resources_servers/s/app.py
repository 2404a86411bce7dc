from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


def lost(body):
    return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("gone"))  # want "GL308"


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        return lost(body)


if __name__ == "__main__":
    S.run_webserver()
