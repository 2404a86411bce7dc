from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray


@ray.remote(num_gpus=1)
class Scorer:
    def score(self, text):
        return 1.0


class ScoreServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self._scorers = [Scorer.remote() for _ in range(self.config.num_shards)]  # want `^GL110 server class ScoreServer builds Ray GPU actors \(num_gpus=1\) at start-up \(in ScoreServer.model_post_init\), so every worker builds its own help: share one set of named actors across the workers \(.options\(name=..., get_if_exists=True, lifetime="detached"\)\), or override multiple_workers_unsupported_reason\(\) on ScoreServer to return "Each worker builds its own Ray GPU actors, so several workers multiply the GPU actors and can fail to schedule them."$`

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ScoreServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ScoreServer.run_webserver()  # related "module-level app of resources_servers/score/app.py: uvicorn"
