from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray  # related "Ray is used here: imports ray"


class Core(SimpleResourcesServer):  # related "server class Core is defined here"
    pass
