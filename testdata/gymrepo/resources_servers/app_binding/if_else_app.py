"""Variant that decides at import time whether it is a uvicorn worker."""

import logging
import os

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer

SINGLE_PROCESS = os.getenv("IS_NEMO_GYM_FASTAPI_WORKER") != "1"


class IfElseServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=0.5)


if __name__ == "__main__":
    IfElseServer.run_webserver()

if SINGLE_PROCESS:
    logging.getLogger(__name__).debug("single process; no worker app")
else:
    app = IfElseServer.run_webserver()
