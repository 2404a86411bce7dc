from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray

USE_RAY = True


class Srv(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = USE_RAY  # want "GL203 ray_enabled of server class Srv of resources_servers/srv/app.py is set to `USE_RAY`.*write `ray_enabled: ClassVar\\[bool\\] = True` \\(Srv uses Ray: resources_servers/srv/app.py:4 imports ray\\)"


if __name__ == "__main__":
    Srv.run_webserver()
