from fastapi import Request
from pydantic import BaseModel, ValidationError
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, SimpleResourcesServer


class TaskData(BaseModel):
    question: str
    answer: int


class Quiz(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        task = TaskData.model_validate(body.task_data)  # want `GL301 Quiz.seed_session raises ValidationError \(pydantic validation of its input, TaskData.model_validate\(...\)\) for input no retry can fix; FastAPI answers it with HTTP 500`
        spread = TaskData(**body.task_data)  # want `GL301 Quiz.seed_session raises ValidationError \(pydantic validation of its input, TaskData\(...\)\)`
        try:
            checked = TaskData.model_validate(body.task_data)
        except ValidationError as e:
            raise ResourcesSeedRejectedError(str(e))
        fixed = TaskData(question="q", answer=1)
        return None


if __name__ == "__main__":
    Quiz.run_webserver()
