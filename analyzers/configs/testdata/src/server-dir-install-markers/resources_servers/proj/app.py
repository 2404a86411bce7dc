from nemo_gym.base_resources_server import SimpleResourcesServer


class ProjServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    ProjServer.run_webserver()
