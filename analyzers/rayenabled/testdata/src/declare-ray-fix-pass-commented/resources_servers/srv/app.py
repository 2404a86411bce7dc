from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    pass  # TODO: score with the Ray pool
