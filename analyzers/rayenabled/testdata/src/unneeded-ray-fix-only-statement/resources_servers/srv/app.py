from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True  # want "GL205 server class Srv declares ray_enabled = True"


if __name__ == "__main__":
    Srv.run_webserver()
