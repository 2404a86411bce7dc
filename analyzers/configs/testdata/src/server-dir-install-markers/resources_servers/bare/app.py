from nemo_gym.base_resources_server import SimpleResourcesServer


class BareServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    BareServer.run_webserver()
