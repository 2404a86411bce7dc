import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer): timeout = 5; retries = 2  # want "GL201 server class Srv uses Ray"


if __name__ == "__main__":
    Srv.run_webserver()
