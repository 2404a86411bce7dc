from nemo_gym.base_resources_server import SimpleResourcesServer


class PlainServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    PlainServer.run_webserver()
