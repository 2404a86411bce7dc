from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in the body of server class Srv of resources_servers/srv/app.py has no annotation.*PydanticUserError: A non-annotated attribute was detected.*write `ray_enabled: ClassVar\\[bool\\] = True`.*the framework package was not found, and gymlint assumes"


if __name__ == "__main__":
    Srv.run_webserver()
