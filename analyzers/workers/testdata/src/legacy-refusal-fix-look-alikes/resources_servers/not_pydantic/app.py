from typing import Literal

from pydantic import model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


def field_validator(*fields):
    return lambda f: f


class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers")
    def one_worker(cls, v):
        if v > 1:
            raise ValueError("quiz supports one worker")  # want "GL103 QuizConfig.one_worker"  # not pydantic's validator: no fix
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

app = QuizServer.run_webserver()
