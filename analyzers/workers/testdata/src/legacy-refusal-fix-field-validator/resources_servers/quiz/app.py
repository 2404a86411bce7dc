from pydantic import field_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    grouped: bool = False

    @field_validator("num_workers", mode="after")
    @classmethod
    def one_worker(cls, v):
        """Grouped quizzes are scored in memory."""
        if v is not None and v > 1:
            raise ValueError("quiz supports one worker")  # want `^GL103 QuizConfig.one_worker, a validator of num_workers`
        return v

    judge_url: str = ""


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig


if __name__ == "__main__":
    QuizServer.run_webserver()
