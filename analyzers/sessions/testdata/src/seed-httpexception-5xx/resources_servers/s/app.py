from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from fastapi import status


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        if body.a:
            raise HTTPException(status_code=500, detail="x")  # want "GL301 .*raises HTTPException with status 500 for input no retry can fix; that is a 5xx help: raise ResourcesSeedRejectedError"
        if body.b:
            raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, "y")  # want "GL301 .*raises HTTPException with status 500"
        if body.c:
            raise HTTPException(status_code=400, detail="bad")
        if body.d:
            raise HTTPException(status_code=503, detail="busy")
        raise HTTPException(status_code=code)

if __name__ == "__main__":
    S.run_webserver()
