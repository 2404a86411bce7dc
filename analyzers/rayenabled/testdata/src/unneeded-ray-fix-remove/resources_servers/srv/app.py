from typing import ClassVar

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer


class Srv(SimpleResourcesServer):
    """Echoes; nothing here uses Ray."""

    ray_enabled: ClassVar[bool] = True  # want "GL205 server class Srv declares ray_enabled = True"

    async def verify(self, body):
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    Srv.run_webserver()
