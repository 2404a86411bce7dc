import ray
from resources_servers.base_srv.base import RayBase


class Srv(RayBase):
    ray_enabled = True  # want "GL204 `ray_enabled = True` in the body of server class Srv .*no ancestor of Srv declares ray_enabled as a ClassVar"


if __name__ == "__main__":
    Srv.run_webserver()
