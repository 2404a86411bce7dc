"""Shares its Ray settings through a mixin of the same file."""

from typing import ClassVar

import ray

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RayWorkersMixin:
    ray_enabled: ClassVar[bool] = True
    num_ray_workers: ClassVar[int] = 4


class MixinDeclServer(RayWorkersMixin, SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=float(ray.is_initialized()))


if __name__ == "__main__":
    MixinDeclServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MixinDeclServer.run_webserver()  # noqa: F401
