from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray
from ray.util import ActorPool
from ray.util.placement_group import placement_group


@ray.remote
class CpuWorker:
    def work(self):
        return 1


@ray.remote(num_gpus=0)
class NoGpu:
    def work(self):
        return 1


@ray.remote(num_gpus=1)
class Scorer:
    def score(self, text):
        return 1.0


class FakeRay:
    def remote(self, **kw):
        return lambda cls: cls


class ScoreServer(SimpleResourcesServer):
    def model_post_init(self, context):
        # CPU-only actors, and an actor class with num_gpus=0.
        self._pool = ActorPool([CpuWorker.remote() for _ in range(4)])
        self._no_gpu = NoGpu.remote()
        # A CPU-only placement group.
        self._pg = placement_group([{"CPU": 2}] * 2 + [{"CPU": 1}])
        # A GPU count gymlint cannot read.
        self._n = Scorer.options(num_gpus=self.config.gpus).remote()
        # A local called ray.
        ray = FakeRay()
        local_cls = ray.remote(num_gpus=1)(CpuWorker)
        self._local = local_cls.remote()

    async def verify(self, body):
        # Per request: an actor built and dropped in the request, not one per worker.
        scorer = Scorer.remote()
        return {"reward": await scorer.score.remote(body.text)}


if __name__ == "__main__":
    ScoreServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ScoreServer.run_webserver()
