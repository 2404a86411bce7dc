from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
import helpers


class Srv(SimpleResourcesServer):  # want "GL201 .*resources_servers/srv/helpers.py:1 imports ray, imported through resources_servers/srv/app.py:4"
    pass


if __name__ == "__main__":
    Srv.run_webserver()
