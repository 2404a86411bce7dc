from nemo_gym.base_resources_server import SimpleResourcesServer  # want GL101
import os  # want "("
import sys  # want "GL101" and more


class EchoServer(SimpleResourcesServer):  # want "GL101"
    pass
