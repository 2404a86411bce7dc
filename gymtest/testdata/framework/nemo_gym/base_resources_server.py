from typing import ClassVar


class SimpleResourcesServer:
    ray_enabled: ClassVar[bool] = False
