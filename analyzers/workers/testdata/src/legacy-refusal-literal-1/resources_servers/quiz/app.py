from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1  # want "GL103 QuizConfig declares `num_workers: Literal\\[1\\]`.*override multiple_workers_unsupported_reason\\(\\) to return why the server cannot run with several workers"


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
