"""Tool-calling server with an optional Python sandbox sidecar."""

from typing import Literal

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class NsToolsServer(SimpleResourcesServer):
    python_tool_mode: Literal["inline", "http"] = "inline"
    python_tool_port: int = 6000

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.python_tool_mode == "http":
            return f"Each worker would start its own sidecar on the fixed port {self.python_tool_port}."
        return None

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    NsToolsServer.run_webserver()
