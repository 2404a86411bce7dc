from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(  # want "GL201 server class Srv uses Ray"
    SimpleResourcesServer,
):

    # Scores with Ray.
    @staticmethod
    def score(ref):
        return ray.get(ref)


if __name__ == "__main__":
    Srv.run_webserver()
