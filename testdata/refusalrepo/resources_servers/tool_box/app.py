"""Tool-sandbox episodes, kept in memory."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class ToolBoxServer(SimpleResourcesServer):
    config: BaseResourcesServerConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Episodes are kept in memory by the env_id in the request body."

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    ToolBoxServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolBoxServer.run_webserver()  # noqa: F401
