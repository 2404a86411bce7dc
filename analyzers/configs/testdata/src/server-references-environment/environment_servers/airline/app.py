from nemo_gym.base_resources_server import SimpleResourcesServer


class AirlineEnvironment(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    AirlineEnvironment.run_webserver()
