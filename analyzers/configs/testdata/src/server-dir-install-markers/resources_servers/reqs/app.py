from nemo_gym.base_resources_server import SimpleResourcesServer


class ReqsServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    ReqsServer.run_webserver()
