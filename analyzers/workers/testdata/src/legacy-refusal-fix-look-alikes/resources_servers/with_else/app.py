from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizServer(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.num_workers > 1:
            raise RuntimeError("quiz supports one worker")  # want "GL103 QuizServer.model_post_init raises"  # an else branch: no fix
        else:
            self.mode = "single"

app = QuizServer.run_webserver()
