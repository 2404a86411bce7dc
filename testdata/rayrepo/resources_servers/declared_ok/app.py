"""Reserves a GPU bundle per episode; declares Ray as the supervisor expects."""

from typing import ClassVar

from ray import available_resources

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class DeclaredOkServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        gpus = available_resources().get("GPU", 0)
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0 if gpus else 0.0)


if __name__ == "__main__":
    DeclaredOkServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = DeclaredOkServer.run_webserver()  # noqa: F401
