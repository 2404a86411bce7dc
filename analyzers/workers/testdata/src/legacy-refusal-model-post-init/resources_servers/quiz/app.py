from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    def model_post_init(self, context):
        if self.config.num_workers and self.config.num_workers > 1:
            raise RuntimeError("quiz supports one worker")  # want "GL103 QuizServer.model_post_init raises on the worker count"
        self._load()
