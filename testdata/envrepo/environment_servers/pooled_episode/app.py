"""Runs episodes from a pool of warm environments that this process owns."""

from typing import Any, Optional

from nemo_gym.server_runtime.base_environment_server import BaseEnvironmentServer


class PooledEpisodeServer(BaseEnvironmentServer):
    def model_post_init(self, context: Any) -> None:
        self._warm: list = []

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return "The warm environment pool is owned by one process."

    async def run(self, request: Any) -> Any:
        env = self._warm.pop() if self._warm else {"fresh": True}
        return {"episode": request, "env": env}


if __name__ == "__main__":
    PooledEpisodeServer.run_webserver()
