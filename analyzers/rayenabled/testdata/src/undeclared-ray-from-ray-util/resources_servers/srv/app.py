from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from ray.util.placement_group import placement_group


class Srv(SimpleResourcesServer):  # want "GL201 .*imports placement_group from ray.util.placement_group"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
