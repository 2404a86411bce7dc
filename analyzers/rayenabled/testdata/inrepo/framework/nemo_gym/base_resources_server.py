from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    pass
