from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers", mode="after")
    @classmethod
    def one_worker(cls, v):
        if v is not None and v > 1:
            raise ValueError("quiz supports one worker")  # want `^GL103 QuizConfig.one_worker, a validator of num_workers, refuses the worker count by raising instead of through multiple_workers_unsupported_reason\(\) help: override multiple_workers_unsupported_reason\(\) on the server class to return the reason under the same condition \(None otherwise\), and remove this check$`
        return v


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
