from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Core(SimpleResourcesServer):
    pass
