import ray  # related "Ray is used here: imports ray"


def fetch(ref):
    return ray.get(ref)
