from typing import Literal

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizConfig(BaseResourcesServerConfig):
    judge_url: str
    num_workers: Literal[1] = 1  # want "^GL103 QuizConfig declares `num_workers: Literal\\[1\\]`"


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig

    async def verify(self, body):
        return body


if __name__ == "__main__":
    QuizServer.run_webserver()
