"""Echo scorer; the ray_enabled line was copied from another server."""

from typing import ClassVar

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class UnneededServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    UnneededServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = UnneededServer.run_webserver()  # noqa: F401
