from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import rayon
import raytracer.scene
from tools import ray_helper


class Srv(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    Srv.run_webserver()
