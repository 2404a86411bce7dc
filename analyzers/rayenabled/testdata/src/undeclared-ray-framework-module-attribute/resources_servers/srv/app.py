from typing import ClassVar

import nemo_gym.server_utils as su
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want "GL201 .*line 9 uses su.ray.wait, which is ray.wait\\)"
    def verify(self, body):
        done, _ = su.ray.wait([body.ref], timeout=1.0)
        return done


if __name__ == "__main__":
    Srv.run_webserver()
