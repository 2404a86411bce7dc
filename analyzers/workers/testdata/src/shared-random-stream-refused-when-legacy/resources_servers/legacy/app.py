import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint, refuse_unsupported_num_workers


class LegacyServer(SimpleResourcesServer):
    def model_post_init(self, context):
        refuse_unsupported_num_workers(self)
        self.rng = random.Random(0)

    async def verify(self, body):
        return {"reward": self.rng.random()}

    def multiple_workers_unsupported_reason(self):
        if self.config.legacy_scoring:
            return "Scoring draws from one random stream shared by the whole server."
        return None


if __name__ == "__main__":
    LegacyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LegacyServer.run_webserver()
