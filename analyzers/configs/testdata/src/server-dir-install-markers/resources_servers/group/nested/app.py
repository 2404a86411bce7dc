from nemo_gym.base_resources_server import SimpleResourcesServer


class NestedServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    NestedServer.run_webserver()
