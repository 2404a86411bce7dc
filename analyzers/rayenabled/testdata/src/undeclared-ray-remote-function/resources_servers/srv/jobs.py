import ray


@ray.remote(num_cpus=1)
def score(body):
    return 1.0
