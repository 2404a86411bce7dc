from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):  # want +1 "GL001 syntax error"
    def verify(self, body:
        pass
