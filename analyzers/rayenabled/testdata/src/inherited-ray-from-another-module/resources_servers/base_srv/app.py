from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class BaseSrv(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True  # related "BaseSrv declares ray_enabled here"
