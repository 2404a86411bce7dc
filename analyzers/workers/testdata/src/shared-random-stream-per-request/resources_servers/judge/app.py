import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class JudgeServer(SimpleResourcesServer):
    async def verify(self, body):
        rng = random.Random(f"{self.config.seed}:{body.id}")
        return {"reward": float(rng.choice(body.candidates) == body.answer)}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()
