from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Core(SimpleResourcesServer):  # related "server class Core is defined here"
    ray_enabled: ClassVar[bool] = True  # related "Core declares ray_enabled here"
