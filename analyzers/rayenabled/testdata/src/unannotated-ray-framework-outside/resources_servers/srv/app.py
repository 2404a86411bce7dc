from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import ray


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "^GL204 `ray_enabled = True` in server class Srv has no annotation.*PydanticUserError at import; the framework package was not found \\(assumed not to declare the ClassVar\\) help: write `ray_enabled: ClassVar\\[bool\\] = True` \\(import ClassVar from typing\\)$"


if __name__ == "__main__":
    Srv.run_webserver()
