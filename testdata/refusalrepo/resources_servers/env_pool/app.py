"""Environments kept in process memory, addressed by an env_id in the body."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EnvPoolServer(SimpleResourcesServer):
    config: BaseResourcesServerConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return (
            "Environments are kept in memory by the env_id in the request body, "
            "and the pool agent sends step and close without the session cookie."
        )

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    EnvPoolServer.run_webserver()
