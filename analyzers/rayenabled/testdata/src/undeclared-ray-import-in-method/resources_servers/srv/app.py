from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want "GL201 .*line 8 imports RayTaskError from ray.exceptions"
    async def verify(self, body):
        from ray.exceptions import RayTaskError
        return body


if __name__ == "__main__":
    Srv.run_webserver()
