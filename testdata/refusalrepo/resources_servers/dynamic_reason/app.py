"""A refusal computed at run time."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class DynamicReasonServer(SimpleResourcesServer):
    config: BaseResourcesServerConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return self._backend_reason()

    def _backend_reason(self) -> str | None:
        return None

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    DynamicReasonServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = DynamicReasonServer.run_webserver()  # noqa: F401
