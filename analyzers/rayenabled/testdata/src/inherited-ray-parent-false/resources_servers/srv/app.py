from typing import ClassVar

from resources_servers.base_srv.app import BaseSrv


class Srv(BaseSrv):  # want "GL201 .*in the module of ancestor class BaseSrv"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
