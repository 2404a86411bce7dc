"""Retrieval over a sharded index held by Ray actors."""

from typing import ClassVar

import ray

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


@ray.remote
class IndexShard:
    def __init__(self, shard: int):
        self.shard = shard

    def hits(self, query: str) -> int:
        return len(query) % (self.shard + 2)


class RetrievalServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True
    shards: int = 2

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        actors = [IndexShard.remote(i) for i in range(self.shards)]
        hits = ray.get([a.hits.remote(body.response_text) for a in actors])
        return BaseVerifyResponse(response_text=body.response_text, reward=float(any(hits)))


if __name__ == "__main__":
    RetrievalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RetrievalServer.run_webserver()  # noqa: F401
