from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    def verify(self, body):
        from utils import ray
        return ray.get(body)


if __name__ == "__main__":
    Srv.run_webserver()
