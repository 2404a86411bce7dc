from typing import Literal

from pydantic import field_validator, model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class BaseQuiz(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.num_workers > 1:
            raise RuntimeError("quiz supports one worker")  # want "GL103 BaseQuiz.model_post_init raises"  # QuizServer runs it through super(): no fix


class QuizServer(BaseQuiz):
    def model_post_init(self, context):
        super().model_post_init(context)
        self.ready = True

app = QuizServer.run_webserver()
