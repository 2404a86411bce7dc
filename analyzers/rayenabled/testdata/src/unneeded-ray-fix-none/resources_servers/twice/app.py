from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Twice(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = False
    timeout: ClassVar[int] = 5
    ray_enabled: ClassVar[bool] = True  # want "GL205 server class Twice declares ray_enabled = True"


if __name__ == "__main__":
    Twice.run_webserver()
