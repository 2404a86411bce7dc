from typing import Optional

from nemo_gym import server_utils
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MetricsWindowConfig(BaseResourcesServerConfig):
    metrics_source: str = "response"


class MetricsWindowServer(SimpleResourcesServer):
    config: MetricsWindowConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        if self.config.metrics_source == "prometheus":
            return "The measuring window starts from a metrics snapshot in this process's memory."
        return None

    def model_post_init(self, context) -> None:
        super().model_post_init(context)
        server_utils.refuse_unsupported_num_workers(self)
        self._start = take_metrics_snapshot(self.config.metrics_source)

    async def verify(self, request, body):
        return {"reward": 1.0}


def take_metrics_snapshot(source: str) -> dict:
    return {}


if __name__ == "__main__":
    MetricsWindowServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MetricsWindowServer.run_webserver()  # noqa: F401
