import time

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LatencyServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.started = time.monotonic()  # related "self.started is measured here, once in every worker"

    async def verify(self, body):
        elapsed = time.monotonic() - self.started  # want `^GL113 LatencyServer.verify subtracts self.started, measured once per worker in LatencyServer.model_post_init by time.monotonic\(\): each worker measures from its own start help: measure from the request .*, or override multiple_workers_unsupported_reason\(\) on LatencyServer to return "Scoring measures from a snapshot taken once at start-up, so each worker would measure from a different start."$`
        return {"reward": 1.0 if elapsed < body.budget else 0.0}


if __name__ == "__main__":
    LatencyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LatencyServer.run_webserver()  # related "module-level app of resources_servers/latency/app.py"
