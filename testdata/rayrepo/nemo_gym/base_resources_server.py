"""Resources servers score rollouts."""

from abc import abstractmethod

from fastapi import FastAPI
from pydantic import BaseModel

from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseVerifyRequest(BaseModel):
    response_text: str = ""


class BaseVerifyResponse(BaseVerifyRequest):
    reward: float


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/verify")(self.verify)
        return app

    @abstractmethod
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse: ...
