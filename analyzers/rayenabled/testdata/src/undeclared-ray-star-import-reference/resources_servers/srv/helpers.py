import ray


def submit(body):
    return ray.put(body)
