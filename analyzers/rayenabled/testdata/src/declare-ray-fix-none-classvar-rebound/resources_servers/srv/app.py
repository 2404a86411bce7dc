import ray
from nemo_gym.base_resources_server import SimpleResourcesServer

ClassVar = object


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
