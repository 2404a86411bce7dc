from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Two(SimpleResourcesServer):
    ray_enabled: "ClassVar[bool]" = True
