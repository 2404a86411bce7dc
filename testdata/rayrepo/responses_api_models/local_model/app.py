"""Serves a local model from replicas placed on the Ray cluster."""

import ray
from ray.util.placement_group import placement_group

from model_actor import ModelReplica
from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LocalModel(SimpleResponsesAPIModel):
    replicas: int = 1

    def start_replicas(self) -> list:
        group = placement_group([{"GPU": 1}] * self.replicas, strategy="PACK")
        ray.get(group.ready())
        return [ModelReplica.options(placement_group=group).remote(i) for i in range(self.replicas)]

    async def responses(self, body: dict) -> dict:
        replica = self.start_replicas()[0]
        return await replica.generate.remote(body)


if __name__ == "__main__":
    LocalModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LocalModel.run_webserver()  # noqa: F401
