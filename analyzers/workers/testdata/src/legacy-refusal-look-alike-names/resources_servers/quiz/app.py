from pydantic import field_validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


# Tests of other names that contain "num_workers", and a message that does,
# are not tests of the worker count.
class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers")
    @classmethod
    def check(cls, value):
        if cls.max_num_workers_hint > 4:
            raise ValueError("num_workers is capped")
        return value


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig

    def model_post_init(self, context):
        if self.config.num_workers_per_gpu > 1:
            raise RuntimeError("num_workers per GPU must be 1")
