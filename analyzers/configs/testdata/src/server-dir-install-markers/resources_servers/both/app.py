from nemo_gym.base_resources_server import SimpleResourcesServer


class BothServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    BothServer.run_webserver()
