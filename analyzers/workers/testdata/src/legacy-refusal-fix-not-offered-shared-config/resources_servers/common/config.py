from typing import Literal

from nemo_gym.base_resources_server import BaseResourcesServerConfig


class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1  # want "GL103 QuizConfig declares"
