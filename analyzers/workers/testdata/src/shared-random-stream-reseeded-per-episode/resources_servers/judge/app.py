import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class JudgeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.rng = random.Random(self.config.seed)
        self._reset(self.config.seed)

    def _reset(self, seed):
        self.rng.seed(seed)

    async def seed_session(self, request, body):
        self._reset(body.seed)
        return {}

    async def verify(self, body):
        return {"reward": self.rng.random()}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()
