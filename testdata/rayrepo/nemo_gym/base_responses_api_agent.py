"""Agents drive a policy model against a resources server."""

from fastapi import FastAPI

from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResponsesAPIAgent(BaseServer):
    pass


class SimpleResponsesAPIAgent(BaseResponsesAPIAgent, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/run")(self.run)
        return app

    async def run(self, body: dict) -> dict:
        raise NotImplementedError
