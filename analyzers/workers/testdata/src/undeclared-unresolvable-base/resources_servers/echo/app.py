from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

from resources_servers.echo import helpers


class EchoServer(helpers.Missing, SimpleResourcesServer):
    pass
