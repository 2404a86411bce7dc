from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers")
    @classmethod
    def one_worker(cls, v):
        if v is not None and v > 1:
            raise ValueError("quiz supports one worker")  # want "GL103 QuizConfig.one_worker"  # it also changes the value: no fix
        return v or 1


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

app = QuizServer.run_webserver()
