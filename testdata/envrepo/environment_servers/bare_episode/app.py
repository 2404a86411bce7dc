"""Runs an episode with the agent alone; nothing says whether it is safe with several workers."""

from typing import Any

from nemo_gym.server_runtime.base_environment_server import BaseEnvironmentServer


class BareEpisodeServer(BaseEnvironmentServer):
    async def run(self, request: Any) -> Any:
        return {"episode": request}


if __name__ == "__main__":
    BareEpisodeServer.run_webserver()
