from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

from resources_servers.echo import helpers


class Parent(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "r"


class EchoServer(helpers.Missing, Parent):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
