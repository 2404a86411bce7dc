import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LegacyServer(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.legacy_scoring:
            self.rng = random.Random(0)

    async def verify(self, body):
        if self.config.legacy_scoring:
            return {"reward": self.rng.random()}  # want `GL109 .* help: .* to return "Scoring draws from one random stream shared by the whole server." when self.config.legacy_scoring \(None otherwise\)`
        return {"reward": 1.0}


if __name__ == "__main__":
    LegacyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LegacyServer.run_webserver()  # related "module-level app of resources_servers/legacy/app.py"
