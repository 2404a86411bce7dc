from nemo_gym.base_resources_server import SimpleResourcesServer


class AbsServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    AbsServer.run_webserver()
