from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from helpers import fetch


class Srv(SimpleResourcesServer):  # want "GL201 .*line 4 imports fetch from helpers, which is ray.get"
    def verify(self, body):
        return fetch(body)


if __name__ == "__main__":
    Srv.run_webserver()
