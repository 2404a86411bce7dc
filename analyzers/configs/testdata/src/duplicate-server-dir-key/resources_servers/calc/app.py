from nemo_gym.base_resources_server import SimpleResourcesServer


class CalcServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    CalcServer.run_webserver()
