"""Base class for reset/step style environments. Starts no server itself."""

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class TurnRequest(BaseModel):
    action: str


class TurnResponse(BaseModel):
    observation: str
    reward: float = 0.0
    done: bool = False


class TurnServer(SimpleResourcesServer):
    session_state: dict[str, dict] = Field(default_factory=dict)

    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/reset")(self.reset)
        app.post("/step")(self.step)
        return app

    async def reset(self, request: Request) -> TurnResponse:
        self.session_state[request.session["session_id"]] = {}
        return TurnResponse(observation="start")

    async def step(self, request: Request, body: TurnRequest) -> TurnResponse:
        raise NotImplementedError

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        raise NotImplementedError("turn-based servers score inside step")
