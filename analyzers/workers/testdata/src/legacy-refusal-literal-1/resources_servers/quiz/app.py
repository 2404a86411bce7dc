from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1  # want "^GL103 QuizConfig declares `num_workers: Literal\\[1\\]`, which refuses several workers in pydantic validation instead of through multiple_workers_unsupported_reason\\(\\) help: override multiple_workers_unsupported_reason\\(\\) on the server class to return why it cannot run with several workers, and remove this check$"


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
