from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import *
from optics import Beam


class Srv(SimpleResourcesServer):
    """Traces rays: ray.get(beam) is optics, not Ray."""

    def verify(self, ray):
        return ray.get(1)

    def trace(self, body):
        ray = Beam(body)
        return ray.get(2)

    def project(self, body):
        return [ray.get(3) for ray in body.beams]

    def sort(self, body):
        return sorted(body.beams, key=lambda ray: ray.get(4))


if __name__ == "__main__":
    Srv.run_webserver()
