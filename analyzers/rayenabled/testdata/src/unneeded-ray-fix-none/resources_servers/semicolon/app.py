from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Semicolon(SimpleResourcesServer):
    timeout: ClassVar[int] = 5; ray_enabled: ClassVar[bool] = True  # want "GL205 server class Semicolon declares ray_enabled = True"
    retries: ClassVar[int] = 2


if __name__ == "__main__":
    Semicolon.run_webserver()
