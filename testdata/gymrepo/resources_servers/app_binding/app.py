"""Echo-scoring server whose worker app is built inside a try block."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class TryBindingServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=float(bool(body.response_text)))


if __name__ == "__main__":
    TryBindingServer.run_webserver()

try:
    app = TryBindingServer.run_webserver() if is_nemo_gym_fastapi_entrypoint(__file__) else None
except RuntimeError:
    pass
