"""Two server classes in one module; only the leaf is the server."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class LayerBase(SimpleResourcesServer):
    scale: float = 1.0

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=self.scale)


class LayerLeaf(LayerBase):
    history: list[float] = []

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "The reward history is appended to in this process only."
