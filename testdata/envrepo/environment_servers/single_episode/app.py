"""Runs one episode: seed the resources server, let the agent act, verify, close."""

from typing import Any

from nemo_gym.server_runtime.base_environment_server import BaseEnvironmentServer
from nemo_gym.server_runtime.server_utils import is_nemo_gym_fastapi_entrypoint


class SingleEpisodeServer(BaseEnvironmentServer):
    async def run(self, request: Any) -> Any:
        seeded = await self.post(self.config.resources_server["name"], "/seed_session", request)
        answer = await self.post(self.config.agent_server["name"], "/run", seeded)
        return await self.post(self.config.resources_server["name"], "/verify", answer)

    async def post(self, server: str, path: str, body: Any) -> Any:
        return {"server": server, "path": path, "body": body}


if __name__ == "__main__":
    SingleEpisodeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SingleEpisodeServer.run_webserver()
