"""Model servers expose an OpenAI Responses-style endpoint."""

from fastapi import FastAPI

from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIModel(BaseServer):
    pass


class SimpleResponsesAPIModel(BaseResponsesAPIModel, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/v1/responses")(self.responses)
        return app

    async def responses(self, body: dict) -> dict:
        raise NotImplementedError
