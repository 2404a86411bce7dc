import ray
from nemo_gym.base_resources_server import SimpleResourcesServer

X = 1


class Srv(SimpleResourcesServer):
    ray_enabled=True  # want "GL204 `ray_enabled = True` in server class"
    x: int = 1


if __name__ == "__main__":
    Srv.run_webserver()
