"""Builds an app, but only when run as a script."""

import uvicorn

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class MainBodyServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    app = MainBodyServer.run_webserver()
    uvicorn.run(app, port=8011)
