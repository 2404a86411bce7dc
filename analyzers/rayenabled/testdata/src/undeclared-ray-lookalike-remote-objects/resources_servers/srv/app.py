from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from client import Client


class Srv(SimpleResourcesServer):
    async def verify(self, body):
        from helpers import plain
        self.worker.remote(body)
        Client().remote(body)
        plain.remote(body)
        body.remote()
        return remote(body)


if __name__ == "__main__":
    Srv.run_webserver()
