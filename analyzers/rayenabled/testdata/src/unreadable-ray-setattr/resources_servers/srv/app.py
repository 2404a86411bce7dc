from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    @classmethod
    def setup(cls):
        setattr(cls, "ray_enabled", True)  # want `GL203 .*set with setattr\(\) in function setup`


if __name__ == "__main__":
    Srv.run_webserver()

setattr(Srv, 'ray_enabled', True)  # want `GL203 .*set with setattr\(\), which the server supervisor does not read`
