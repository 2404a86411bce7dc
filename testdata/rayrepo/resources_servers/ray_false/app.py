"""Uses Ray but says it does not."""

from typing import ClassVar

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RayFalseServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = False

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        from ray.exceptions import GetTimeoutError

        try:
            reward = 1.0
        except GetTimeoutError:
            reward = 0.0
        return BaseVerifyResponse(response_text=body.response_text, reward=reward)


if __name__ == "__main__":
    RayFalseServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RayFalseServer.run_webserver()  # noqa: F401
