"""An old server: its GL101 is ignored by a per-path ignore."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class LegacyServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=0.5)


if __name__ == "__main__":
    LegacyServer.run_webserver()
