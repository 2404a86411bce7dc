from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

import typing


class QuizConfig(BaseResourcesServerConfig):
    num_workers: Optional[typing.Literal[1]] = None  # want `^GL103 QuizConfig declares .* help: make sure QuizServer.multiple_workers_unsupported_reason\(\) returns the reason on every path, and remove this check$`


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self):  # related `QuizServer.multiple_workers_unsupported_reason\(\) is where`
        return "quiz state is in memory"
