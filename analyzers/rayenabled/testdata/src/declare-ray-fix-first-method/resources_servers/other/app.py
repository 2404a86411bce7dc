from typing import ClassVar

import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Other(SimpleResourcesServer):  # want "GL201 server class Other uses Ray"
    def score(self, ref):
        return ray.get(ref)


if __name__ == "__main__":
    Other.run_webserver()
