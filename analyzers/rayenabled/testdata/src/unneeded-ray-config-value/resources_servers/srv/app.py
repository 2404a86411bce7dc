from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True


if __name__ == "__main__":
    Srv.run_webserver()
