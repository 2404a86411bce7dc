from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):  # related "is defined here" # related "is defined here"
    pass
