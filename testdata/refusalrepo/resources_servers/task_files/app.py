"""Deliverables written to a per-task directory."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

_WORKERS_REASON = (
    "A seed claims the persisted deliverables directory of its task in memory, "
    "so sessions on different workers could write the same directory."
)


class TaskFilesServer(SimpleResourcesServer):
    config: BaseResourcesServerConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return _WORKERS_REASON

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    TaskFilesServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TaskFilesServer.run_webserver()  # noqa: F401
