import asyncio
from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import *


class Srv(SimpleResourcesServer):  # want "GL201 .*line 12 uses ray.get\\)"
    async def verify(self, body):
        loop = asyncio.get_running_loop()
        ref = body.ref
        return await loop.run_in_executor(None, ray.get, ref)


if __name__ == "__main__":
    Srv.run_webserver()
