"""Tools backed by a Python sidecar process."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SidecarToolsConfig(BaseResourcesServerConfig):
    sidecar_mode: str = "inline"
    sidecar_port: int = 6000


class SidecarToolsServer(SimpleResourcesServer):
    config: SidecarToolsConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.sidecar_mode != "http":
            return None
        return f"Each worker would start its own sidecar on the fixed port {self.config.sidecar_port}."

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    SidecarToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SidecarToolsServer.run_webserver()  # noqa: F401
