from pydantic import root_validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    @root_validator(pre=True)
    def one_worker(cls, values):
        if values.get("num_workers", 1) > 1:
            raise ValueError("quiz supports one worker")  # want "GL103 QuizConfig.one_worker, a model validator, refuses the worker count by raising"
        return values


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
