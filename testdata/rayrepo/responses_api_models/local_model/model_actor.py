"""One model replica as a Ray actor."""

import ray


@ray.remote(num_gpus=1)
class ModelReplica:
    def __init__(self, rank: int):
        self.rank = rank

    def generate(self, body: dict) -> dict:
        return {"output": [], "rank": self.rank}
