from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import *


class Srv(SimpleResourcesServer):  # want "GL201 .*line 9 uses ray.get\\)"
    def verify(self, body):
        return ray.get(body.ref)


if __name__ == "__main__":
    Srv.run_webserver()
