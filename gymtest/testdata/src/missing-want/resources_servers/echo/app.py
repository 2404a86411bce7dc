from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):  # want "GL101"
    pass  # want "GL106 unreachable"
