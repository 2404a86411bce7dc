from typing import Literal

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class QuizBowlConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1
    max_rounds: Literal[1] = 1


class QuizBowlServer(SimpleResourcesServer):
    config: QuizBowlConfig

    async def verify(self, request, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    QuizBowlServer.run_webserver()
