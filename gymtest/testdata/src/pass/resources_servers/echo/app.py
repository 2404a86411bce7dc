"""Echo, started by lite.py."""
from nemo_gym.base_resources_server import SimpleResourcesServer

# want +1 "GL101 server class EchoServer has neither"
class EchoServer(SimpleResourcesServer):  # related `is defined here`
    pass
