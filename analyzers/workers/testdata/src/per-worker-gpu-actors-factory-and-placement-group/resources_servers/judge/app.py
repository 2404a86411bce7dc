from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray
from ray.util.placement_group import placement_group


def build_judge_class(impl):
    return ray.remote(num_gpus=0.5)(impl)


class JudgeImpl:
    def judge(self, text):
        return 1.0


class JudgeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        device = "GPU"
        bundles = [{device: 1, "CPU": 4}] * self.config.tp + [{"CPU": 1}]
        self._pg = placement_group(bundles=bundles)  # want `^GL110 server class JudgeServer builds a Ray placement group of GPU bundles \("GPU": 1 per bundle\) at start-up`
        judge_cls = build_judge_class(JudgeImpl)
        self._judge = judge_cls.remote()  # want `^GL110 server class JudgeServer builds Ray GPU actors \(num_gpus=0.5\) at start-up \(in JudgeServer.model_post_init\)`

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()  # related "module-level app of resources_servers/judge/app.py: uvicorn"
