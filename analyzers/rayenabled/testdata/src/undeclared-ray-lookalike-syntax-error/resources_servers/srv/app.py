from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want +1 "GL001 syntax error"
    def verify(self, body:
        pass


if __name__ == "__main__":
    Srv.run_webserver()
