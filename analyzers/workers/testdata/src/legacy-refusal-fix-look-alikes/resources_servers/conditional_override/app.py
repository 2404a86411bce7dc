from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    grouped: bool = False
    num_workers: Literal[1] = 1  # want "GL103 QuizConfig declares"  # the override refuses only when grouped: no fix


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.grouped:
            return "grouped quizzes are scored in memory"
        return None

app = QuizServer.run_webserver()
