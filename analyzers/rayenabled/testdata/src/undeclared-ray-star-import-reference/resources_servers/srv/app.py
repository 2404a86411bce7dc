import asyncio
from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from helpers import *


class Srv(SimpleResourcesServer):  # want "GL201 .*line 11 uses ray.get\\)"
    async def verify(self, body):
        ref = submit(body)
        return await asyncio.to_thread(ray.get, ref)  # related "Ray is used here: uses ray.get"


if __name__ == "__main__":
    Srv.run_webserver()
