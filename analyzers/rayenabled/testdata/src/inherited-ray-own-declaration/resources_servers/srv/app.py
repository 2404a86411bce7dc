from typing import ClassVar

from resources_servers.base_srv.app import BaseSrv


class Srv(BaseSrv):
    ray_enabled: ClassVar[bool] = True


if __name__ == "__main__":
    Srv.run_webserver()
