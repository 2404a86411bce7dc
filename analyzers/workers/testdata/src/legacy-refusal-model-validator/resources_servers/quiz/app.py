from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    @model_validator(mode="after")
    def check(self):
        if self.judge_url is None:
            raise ValueError("judge_url is required")
        if (self.num_workers or 1) > 1:
            raise ValueError("quiz supports one worker")  # want "GL103 QuizConfig.check, a model validator"
        return self


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
