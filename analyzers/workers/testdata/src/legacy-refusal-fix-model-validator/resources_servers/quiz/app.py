from pydantic import model_validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class QuizConfig(BaseResourcesServerConfig):
    judge_url: str | None = None
    grouped: bool = False

    @model_validator(mode="after")
    def check(self):
        if self.judge_url is None:
            raise ValueError("judge_url is required")
        if self.grouped and (self.num_workers or 1) > 1:
            raise ValueError(  # want "GL103 QuizConfig.check, a model validator"
                "grouped quizzes are scored in memory"
                " by the quiz id in the request body"
            )
        return self


class QuizServer(SimpleResourcesServer):
    config: QuizConfig


if __name__ == "__main__":
    QuizServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = QuizServer.run_webserver()
