from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    Srv.run_webserver()
