from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import os


class Srv(SimpleResourcesServer):
    ray_enabled = os.environ.get("USE_RAY") == "1"  # want "GL203 .*gymlint finds no Ray use in Srv, so if it does not need Ray, remove the declaration instead" "GL204 `ray_enabled = os.environ.get\\(\"USE_RAY\"\\) == \"1\"`"


if __name__ == "__main__":
    Srv.run_webserver()
