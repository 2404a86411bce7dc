from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray


@ray.remote(num_gpus=1)
class Scorer:
    def score(self, text):
        return 1.0


class ScoreServer(SimpleResourcesServer):
    # The remedy: refuse several workers when the actors are built.
    def multiple_workers_unsupported_reason(self):
        if self.config.use_scorer:
            return "Each worker builds its own Ray GPU actors."
        return None

    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.use_scorer:
            self._scorers = [Scorer.remote() for _ in range(2)]
        return app

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ScoreServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ScoreServer.run_webserver()
