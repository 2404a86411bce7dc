from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/look")(self.look)
        return app

    async def look(self, request: Request, body):
        if body.name not in self.catalogue:
            raise HTTPException(status_code=400, detail="unknown")
        return self.catalogue[body.name]


if __name__ == "__main__":
    S.run_webserver()
