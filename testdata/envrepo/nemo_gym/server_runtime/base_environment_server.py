"""Environment servers run whole episodes against a resources server and an agent."""

from abc import abstractmethod
from typing import Any

from fastapi import FastAPI

from nemo_gym.server_runtime.server_utils import SimpleServer


class BaseEnvironmentServer(SimpleServer):
    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()

        async def run_endpoint(body: Any) -> Any:
            return await self.run(body)

        app.post("/run")(run_endpoint)
        return app

    @abstractmethod
    async def run(self, request: Any) -> Any: ...
