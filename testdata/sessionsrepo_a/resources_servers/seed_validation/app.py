"""GL301: a pydantic ValidationError re-raised, and a repository ValueError."""

import logging

import pydantic
from fastapi import Request
from pydantic import BaseModel, ValidationError

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.base_resources_server import ResourcesSeedRejectedError as Rejected
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

logger = logging.getLogger(__name__)


class TaskData(BaseModel):
    question: str


class TaskDataError(ValueError):
    pass


class ValidatingServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        try:
            data = TaskData.model_validate(body.task_data)
        except ValidationError:
            raise
        try:
            extra = TaskData.model_validate(body.extra)
        except pydantic.ValidationError as e:
            logger.warning("bad extra: %s", e)
            raise e
        if not data.question:
            raise TaskDataError("empty question")
        try:
            TaskData.model_validate(body.more)
        except ValueError as e:
            raise Rejected(str(e)) from e
        if extra.question == data.question:
            raise Rejected("the extra question repeats the question")
        return None

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    ValidatingServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ValidatingServer.run_webserver()
