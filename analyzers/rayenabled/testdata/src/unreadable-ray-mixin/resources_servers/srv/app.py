from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray  # related "Ray is used here: imports ray"


class RayMixin:
    ray_enabled: ClassVar[bool] = True  # want "GL203 ray_enabled is declared on RayMixin, not on server class Srv.* help: write `ray_enabled: ClassVar\\[bool\\] = True` in the body of Srv"


class Srv(RayMixin, SimpleResourcesServer):  # related "the server class is Srv"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
