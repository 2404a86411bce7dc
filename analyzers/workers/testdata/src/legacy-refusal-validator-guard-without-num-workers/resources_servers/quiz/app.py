from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers", "num_rounds")
    @classmethod
    def positive(cls, v):
        if v is not None and v < 0:
            raise ValueError("must be positive")
        return v


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
