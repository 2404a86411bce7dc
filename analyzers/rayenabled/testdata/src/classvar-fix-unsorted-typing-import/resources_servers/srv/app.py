from typing import Optional, Any

import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class"
    note: Optional[Any] = None


if __name__ == "__main__":
    Srv.run_webserver()
