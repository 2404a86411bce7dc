from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    ray_enabled = other = True  # want "GL204 `ray_enabled = True` in server class"


if __name__ == "__main__":
    Srv.run_webserver()
