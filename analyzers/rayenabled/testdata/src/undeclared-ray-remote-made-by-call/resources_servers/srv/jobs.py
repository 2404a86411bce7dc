import ray


def score(b):
    return b


score_remote = ray.remote(num_cpus=1)(score)
