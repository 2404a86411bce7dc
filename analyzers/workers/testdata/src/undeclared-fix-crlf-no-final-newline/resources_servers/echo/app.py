from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):  # want "GL101 server class EchoServer has neither"
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()