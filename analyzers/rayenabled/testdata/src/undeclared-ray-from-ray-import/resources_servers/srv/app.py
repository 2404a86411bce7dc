from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from ray import available_resources, cluster_resources


class Srv(SimpleResourcesServer):  # want "GL201 .*line 4 imports available_resources from ray"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
