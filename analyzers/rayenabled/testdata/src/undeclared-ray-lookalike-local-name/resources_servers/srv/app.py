from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from optics import Beam

ray = Beam()
ray.get(1)


class Srv(SimpleResourcesServer):
    async def verify(self, ray):
        return ray.wait(ray.put(1))


if __name__ == "__main__":
    Srv.run_webserver()
