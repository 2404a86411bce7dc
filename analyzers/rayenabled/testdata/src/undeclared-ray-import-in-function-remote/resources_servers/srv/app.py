from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


def build():
    import ray

    @ray.remote(num_gpus=1)
    def score(x):
        return x

    return score


class Srv(SimpleResourcesServer):  # want "GL201 .*line 7 imports ray"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
