"""Resources servers hold a session's tools and score it."""

from abc import abstractmethod

from fastapi import FastAPI
from pydantic import BaseModel

from nemo_gym.server_runtime.server_utils import BaseServer, SimpleServer


class BaseVerifyResponse(BaseModel):
    reward: float


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/verify")(self.verify)
        return app

    @abstractmethod
    async def verify(self, body) -> BaseVerifyResponse: ...
