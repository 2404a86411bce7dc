from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import os


class Srv(SimpleResourcesServer):
    ray_enabled = os.environ.get("USE_RAY") == "1"  # want "GL203 .*\\(gymlint finds no Ray use in Srv\\) help: if Srv needs Ray, write `ray_enabled: ClassVar\\[bool\\] = True`; if not, remove the declaration$" "GL204 `ray_enabled = os.environ.get\\(\"USE_RAY\"\\) == \"1\"`"


if __name__ == "__main__":
    Srv.run_webserver()
