from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray


@ray.remote(num_gpus=1)
class Scorer:
    def score(self, text):
        return 1.0


class ScoreServer(SimpleResourcesServer):
    def model_post_init(self, context):
        # The fixed shape: every worker gets the same named, detached actors.
        self._scorers = [
            Scorer.options(name=f"scorer-{i}", get_if_exists=True, lifetime="detached").remote()
            for i in range(self.config.num_shards)
        ]
        self._shared = ray.get_actor("scorer-0")

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ScoreServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ScoreServer.run_webserver()
