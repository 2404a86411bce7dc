import json
import time

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RefServer(SimpleResourcesServer):
    def model_post_init(self, context):
        with open(self.config.table_path) as f:
            self.reference = json.load(f)
        self.budget = self.config.budget_s

    async def verify(self, body):
        gap = body.value - self.reference[body.key]
        return {"reward": 1.0 if abs(gap) < self.budget else 0.0}


if __name__ == "__main__":
    RefServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RefServer.run_webserver()
