from nemo_gym.base_resources_server import SimpleResourcesServer


class WebServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    WebServer.run_webserver()
