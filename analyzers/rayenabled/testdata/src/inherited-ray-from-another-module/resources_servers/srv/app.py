from typing import ClassVar

from resources_servers.base_srv.app import BaseSrv


class Srv(BaseSrv):  # want "^GL202 server class Srv inherits ray_enabled from BaseSrv \\(resources_servers/base_srv/app.py:8\\), which the server supervisor does not read help: declare `ray_enabled: ClassVar\\[bool\\] = True` on Srv itself$"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
