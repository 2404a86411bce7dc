"""Declares Ray; whether it needs it depends on a helper that does not parse."""

from typing import ClassVar

from scratch import score

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class UnneededScratchServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=score(body.response_text))


if __name__ == "__main__":
    UnneededScratchServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = UnneededScratchServer.run_webserver()  # noqa: F401
