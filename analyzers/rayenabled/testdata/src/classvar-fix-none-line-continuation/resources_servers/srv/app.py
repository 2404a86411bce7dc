from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want +1 "GL204 `ray_enabled = True` in server class"
    ray_enabled = \
        True


if __name__ == "__main__":
    Srv.run_webserver()
