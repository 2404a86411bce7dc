from nemo_gym.config_types import BaseRunServerInstanceConfig
from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResourcesServerConfig(BaseRunServerInstanceConfig):
    pass


class BaseResourcesServer(BaseServer):
    config: BaseResourcesServerConfig


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    pass
