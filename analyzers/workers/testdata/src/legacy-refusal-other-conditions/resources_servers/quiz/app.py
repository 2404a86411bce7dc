from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    @model_validator(mode="after")
    def check(self):
        if self.judge_url is None:
            raise ValueError("judge_url is required")
        return self


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig

    def model_post_init(self, context):
        if not self.config.data_path:
            raise RuntimeError("data_path is required")
        workers = self.config.num_workers
