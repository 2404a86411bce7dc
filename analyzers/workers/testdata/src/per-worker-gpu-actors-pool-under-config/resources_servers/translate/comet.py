import ray


@ray.remote
class CometActor:
    def __init__(self, shard):
        self.shard = shard
