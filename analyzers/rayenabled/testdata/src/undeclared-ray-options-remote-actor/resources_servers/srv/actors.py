import ray as r


@r.remote
class Scorer:
    pass
