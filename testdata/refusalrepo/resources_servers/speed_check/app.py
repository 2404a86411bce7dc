"""Speculative-decoding speed measurement."""

from typing import Literal

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SpeedCheckConfig(BaseResourcesServerConfig):
    metrics_source: Literal["response", "prometheus"] = "response"


class SpeedCheckServer(SimpleResourcesServer):
    config: SpeedCheckConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.metrics_source == "prometheus":
            return "The decoding window starts from a metrics snapshot in memory, so each worker would measure from a different start."
        return None

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    SpeedCheckServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SpeedCheckServer.run_webserver()  # noqa: F401
