from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204" "GL205"


if __name__ == "__main__":
    Srv.run_webserver()
