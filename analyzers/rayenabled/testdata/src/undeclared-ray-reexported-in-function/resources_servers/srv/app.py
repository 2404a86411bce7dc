from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want "GL201 .*line 8 imports ray from utils, which is the ray module"
    def verify(self, body):
        from utils import ray
        return ray.get(body)


if __name__ == "__main__":
    Srv.run_webserver()
