"""Srv."""
from __future__ import annotations

try:
    import ray
    from nemo_gym.base_resources_server import SimpleResourcesServer
except ImportError:
    raise


@decorate
class Srv(SimpleResourcesServer):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in server class"


if __name__ == "__main__":
    Srv.run_webserver()
