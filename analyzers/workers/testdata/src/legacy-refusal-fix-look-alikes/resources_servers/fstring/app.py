from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers")
    @classmethod
    def one_worker(cls, v):
        if v > 1:
            raise ValueError(f"quiz supports one worker, not {v}")  # want "GL103 QuizConfig.one_worker"  # a computed reason: no fix
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

app = QuizServer.run_webserver()
