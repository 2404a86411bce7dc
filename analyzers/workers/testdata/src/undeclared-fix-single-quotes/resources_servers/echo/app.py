from nemo_gym.base_resources_server import SimpleResourcesServer

GREETING = 'hello'


class EchoServer(SimpleResourcesServer):  # want "GL101 server classes EchoServer, OtherServer have neither"
    prefix: str = 'echo: '


class OtherServer(SimpleResourcesServer):
    pass
