from nemo_gym.base_resources_server import SimpleResourcesServer


class SearchServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    SearchServer.run_webserver()
