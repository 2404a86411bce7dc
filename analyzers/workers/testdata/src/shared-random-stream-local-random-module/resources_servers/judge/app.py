import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


random.seed(3)


class JudgeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.rng = random.Random(3)

    async def verify(self, body):
        return {"reward": random.random() + self.rng.random()}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()
