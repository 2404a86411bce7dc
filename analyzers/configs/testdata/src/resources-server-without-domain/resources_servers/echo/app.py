from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
