from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class RayBase(SimpleResourcesServer):
    ray_enabled: "ClassVar[bool]" = False
