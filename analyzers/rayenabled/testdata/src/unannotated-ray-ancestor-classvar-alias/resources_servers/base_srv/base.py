from typing import ClassVar as CV

from nemo_gym.base_resources_server import SimpleResourcesServer


class RayBase(SimpleResourcesServer):
    ray_enabled: CV[bool] = False
