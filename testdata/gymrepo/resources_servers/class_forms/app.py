"""Reaches the framework base through a module attribute."""

from nemo_gym import base_resources_server


class DottedServer(base_resources_server.SimpleResourcesServer):
    seen: int = 0

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "The seen counter is a per-process tally reported by aggregate_metrics."

    async def verify(self, body: base_resources_server.BaseVerifyRequest) -> base_resources_server.BaseVerifyResponse:
        self.seen += 1
        return base_resources_server.BaseVerifyResponse(response_text=body.response_text, reward=1.0)
