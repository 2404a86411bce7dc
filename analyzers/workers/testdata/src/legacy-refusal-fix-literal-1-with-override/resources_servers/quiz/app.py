from typing import Literal, Optional

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    num_workers: Optional[Literal[1]] = None  # want `^GL103 QuizConfig declares .* help: make sure QuizServer.multiple_workers_unsupported_reason\(\) returns the reason on every path`


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self):  # related `QuizServer.multiple_workers_unsupported_reason\(\) is where`
        return "quiz state is in memory"
