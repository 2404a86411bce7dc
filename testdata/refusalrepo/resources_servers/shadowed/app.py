"""A refusal on a mixin listed after the framework base."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SingleProcessMixin:
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Counters live in this process."


class ShadowedServer(SimpleResourcesServer, SingleProcessMixin):
    config: BaseResourcesServerConfig

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    ShadowedServer.run_webserver()
