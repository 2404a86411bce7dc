from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    @model_validator(mode="before")
    @classmethod
    def check(cls, values):
        if values.get("num_workers", 1) > 1:
            raise ValueError("quiz supports one worker")  # want "GL103 QuizConfig.check, a model validator"  # raw values: no fix
        return values


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

app = QuizServer.run_webserver()
