from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from pydantic import ValidationError
import pydantic


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        try:
            x = Model(**body.task_data)
        except ValidationError:  # related "the exception is caught here and re-raised"
            raise  # want `GL301 .*raises the ValidationError it catches \(a re-raise\)`
        try:
            y = 1
        except pydantic.ValidationError as e:  # related "the exception is caught here and re-raised"
            logger.warning(e)
            raise e  # want `GL301 .*raises the pydantic.ValidationError it catches \(a re-raise\)`
        return None

if __name__ == "__main__":
    S.run_webserver()
