"""Echo, started by lite.py."""
from nemo_gym.base_resources_server import SimpleResourcesServer

# want +1 "GL101 server class EchoServer of resources_servers/echo/app.py"
class EchoServer(SimpleResourcesServer):  # related `is defined here`
    pass
