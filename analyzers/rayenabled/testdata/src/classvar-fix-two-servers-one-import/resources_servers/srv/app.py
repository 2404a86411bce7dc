import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class"


class Two(SimpleResourcesServer):  # want +1 "GL204 `ray_enabled = True` in server class"
    ray_enabled = (
        True
    )
