import ray


def go(b):
    return ray.get(b)
