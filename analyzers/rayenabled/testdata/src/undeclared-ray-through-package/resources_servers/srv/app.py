from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from resources_servers.srv.lib import runner


class Srv(SimpleResourcesServer):  # want "GL201 .*resources_servers/srv/lib/pool.py:1 imports placement_group from ray.util.placement_group, imported through resources_servers/srv/app.py:4, resources_servers/srv/lib/runner.py:1"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
