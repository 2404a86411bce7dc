from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class BaseSrv(SimpleResourcesServer):  # want "GL201 .*declares ray_enabled = False"
    ray_enabled: ClassVar[bool] = False
