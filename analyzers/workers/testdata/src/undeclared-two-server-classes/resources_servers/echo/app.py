from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):  # want "GL101 server classes EchoServer, OtherServer have neither"
    pass


class OtherServer(SimpleResourcesServer):
    pass
