import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


# want +1 "GL201 server class Srv uses Ray"
class Srv(SimpleResourcesServer): pass


if __name__ == "__main__":
    Srv.run_webserver()
