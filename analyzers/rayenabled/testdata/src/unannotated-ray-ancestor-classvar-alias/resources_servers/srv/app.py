import ray
from resources_servers.base_srv.base import RayBase


class Srv(RayBase):
    ray_enabled = True


if __name__ == "__main__":
    Srv.run_webserver()
