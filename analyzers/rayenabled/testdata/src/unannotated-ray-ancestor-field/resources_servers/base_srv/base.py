from nemo_gym.base_resources_server import SimpleResourcesServer


class RayBase(SimpleResourcesServer):
    ray_enabled: bool = False
