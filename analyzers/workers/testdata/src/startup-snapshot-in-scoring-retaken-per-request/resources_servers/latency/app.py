import time

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LatencyServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.started = time.monotonic()

    async def seed_session(self, request, body):
        self.started = time.monotonic()
        return {}

    async def verify(self, body):
        elapsed = time.monotonic() - self.started
        return {"reward": 1.0 if elapsed < body.budget else 0.0}


if __name__ == "__main__":
    LatencyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LatencyServer.run_webserver()
