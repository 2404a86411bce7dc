from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want "GL201 .*declares ray_enabled = False but uses Ray"
    ray_enabled: ClassVar[bool] = (False)  # turned off by mistake


if __name__ == "__main__":
    Srv.run_webserver()
