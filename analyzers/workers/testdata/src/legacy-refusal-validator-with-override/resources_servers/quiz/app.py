from pydantic import field_validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer

class QuizConfig(BaseResourcesServerConfig):
    grouped: bool = False

    @field_validator("num_workers", mode="after")
    @classmethod
    def one_worker(cls, v):
        if v is not None and v > 1:
            raise ValueError("quiz supports one worker")  # want `^GL103 QuizConfig.one_worker, a validator of num_workers, refuses the worker count by raising instead of through multiple_workers_unsupported_reason\(\) help: put the same condition in QuizServer.multiple_workers_unsupported_reason\(\), returning the reason instead of raising, and remove this check$`
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^QuizServer.multiple_workers_unsupported_reason\(\) is where the condition belongs$`
        if self.config.grouped:
            return "Grouped quizzes are scored in this process's memory."
        return None
