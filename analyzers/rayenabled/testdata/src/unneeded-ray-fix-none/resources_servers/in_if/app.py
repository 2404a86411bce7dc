import os
from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class InIf(SimpleResourcesServer):
    timeout: ClassVar[int] = 5
    if os.environ.get("SCALE"):
        ray_enabled: ClassVar[bool] = True  # want "GL205 server class InIf declares ray_enabled = True"


if __name__ == "__main__":
    InIf.run_webserver()
