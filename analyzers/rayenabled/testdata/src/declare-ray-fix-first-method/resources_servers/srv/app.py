from typing import ClassVar

import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    """No blank line after this docstring."""
    @staticmethod
    def score(ref):
        return ray.get(ref)


if __name__ == "__main__":
    Srv.run_webserver()
