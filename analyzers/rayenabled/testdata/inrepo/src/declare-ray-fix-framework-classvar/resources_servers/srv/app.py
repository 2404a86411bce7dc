from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    """The framework's BaseServer declares ray_enabled a ClassVar."""

    def score(self, ref):
        return ray.get(ref)


if __name__ == "__main__":
    Srv.run_webserver()
