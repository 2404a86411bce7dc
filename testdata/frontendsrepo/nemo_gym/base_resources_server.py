"""Resources servers score rollouts and hold per-session tool state."""

from abc import abstractmethod

from fastapi import FastAPI
from pydantic import BaseModel

from nemo_gym.server_utils import AggregateMetricsMixin, BaseServer, SimpleServer


class BaseVerifyRequest(BaseModel):
    response_text: str = ""


class BaseVerifyResponse(BaseVerifyRequest):
    reward: float


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, AggregateMetricsMixin, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        return app

    async def seed_session(self, body: dict) -> dict:
        return {}

    @abstractmethod
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse: ...
