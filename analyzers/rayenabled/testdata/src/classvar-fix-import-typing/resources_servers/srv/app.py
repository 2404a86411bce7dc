import typing
import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class"


if __name__ == "__main__":
    Srv.run_webserver()
