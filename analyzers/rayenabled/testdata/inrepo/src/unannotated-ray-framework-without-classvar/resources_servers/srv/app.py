from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 .*no ancestor of Srv declares ray_enabled as a ClassVar"


if __name__ == "__main__":
    Srv.run_webserver()
