from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


def lost_session_verification(reason):
    return {"reward": 0.0}


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        return R(**body.model_dump(), **lost_session_verification("gone"))


if __name__ == "__main__":
    S.run_webserver()
