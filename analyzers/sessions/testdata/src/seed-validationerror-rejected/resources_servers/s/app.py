from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from pydantic import ValidationError


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        try:
            x = Model(**body.task_data)
        except ValidationError as e:
            raise ResourcesSeedRejectedError(str(e)) from e
        try:
            await self.start()
        except Exception:
            await self.stop()
            raise
        return None

if __name__ == "__main__":
    S.run_webserver()
