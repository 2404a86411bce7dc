import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer): """A docstring must stay first."""  # want "GL201 server class Srv uses Ray"


if __name__ == "__main__":
    Srv.run_webserver()
