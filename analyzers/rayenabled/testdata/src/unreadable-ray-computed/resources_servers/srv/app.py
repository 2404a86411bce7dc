from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray

USE_RAY = True


class Srv(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = USE_RAY  # want "^GL203 ray_enabled of server class Srv is set to `USE_RAY`, not the literal True the server supervisor reads \\(Srv uses Ray: line 4 imports ray\\) help: write `ray_enabled: ClassVar\\[bool\\] = True`$"


if __name__ == "__main__":
    Srv.run_webserver()
