"""Builds office reports; one process owns the office suite install."""

from typing import Optional

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class ReportBuilderConfig(BaseResourcesServerConfig):
    office_suite_dir: str = "/opt/office"


def ensure_office_suite(path: str) -> None:
    """Install the office suite if it is missing (slow: minutes)."""


class ReportBuilderServer(SimpleResourcesServer):
    config: ReportBuilderConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return "A seed claims the deliverables directory of its task in memory, keyed by the task id in the request body."

    def model_post_init(self, context) -> None:
        super().model_post_init(context)
        self._claims = {}
        ensure_office_suite(self.config.office_suite_dir)
        refuse_unsupported_num_workers(self)

    async def verify(self, request, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ReportBuilderServer.run_webserver()
