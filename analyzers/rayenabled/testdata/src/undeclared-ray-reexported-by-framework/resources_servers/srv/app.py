from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import ray


class Srv(SimpleResourcesServer):  # want "GL201 .*line 4 imports ray from nemo_gym.server_utils, which is the ray module"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
