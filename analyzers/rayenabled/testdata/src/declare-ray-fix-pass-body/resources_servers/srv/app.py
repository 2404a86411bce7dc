from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    """Only imports Ray."""

    pass


if __name__ == "__main__":
    Srv.run_webserver()
