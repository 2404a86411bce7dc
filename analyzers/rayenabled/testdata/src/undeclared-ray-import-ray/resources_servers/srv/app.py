from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray  # related "Ray is used here: imports ray"


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray \\(line 4 imports ray\\) but does not declare it help: add `ray_enabled: ClassVar\\[bool\\] = True` to the body of Srv"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
