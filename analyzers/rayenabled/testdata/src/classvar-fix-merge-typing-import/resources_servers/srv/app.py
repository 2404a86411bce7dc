from typing import Any, Dict, Optional

import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class"
    cache: Optional[Dict[str, Any]] = None


if __name__ == "__main__":
    Srv.run_webserver()
