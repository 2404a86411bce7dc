from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizServer(SimpleResourcesServer):
    max_workers: int = 1

    def model_post_init(self, context):
        if self.config.num_workers > self.max_workers:
            raise RuntimeError("quiz supports one worker")  # want "GL103 QuizServer.model_post_init raises"  # reads more than the config: no fix

app = QuizServer.run_webserver()
