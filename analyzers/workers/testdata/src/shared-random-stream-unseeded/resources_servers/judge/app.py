import random

import numpy

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class JudgeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.rng = random.Random()
        self.np_rng = numpy.random.default_rng(None)

    async def verify(self, body):
        return {"reward": self.rng.random() + self.np_rng.random() + random.random()}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()
