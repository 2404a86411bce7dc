from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SimpleServer


class Srv(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    Srv.run_webserver()
