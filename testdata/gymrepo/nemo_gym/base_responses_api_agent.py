"""Agents drive a policy model against a resources server."""

from fastapi import FastAPI

from nemo_gym.server_utils import AggregateMetricsMixin, BaseServer, SimpleServer


class BaseResponsesAPIAgent(BaseServer):
    pass


class SimpleResponsesAPIAgent(BaseResponsesAPIAgent, AggregateMetricsMixin, SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/v1/responses")(self.responses)
        app.post("/run")(self.run)
        return app

    async def responses(self, body: dict) -> dict:
        raise NotImplementedError

    async def run(self, body: dict) -> dict:
        raise NotImplementedError
