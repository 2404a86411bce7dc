"""Proof grading that can zero whole groups."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class ProofGraderConfig(BaseResourcesServerConfig):
    zero_reward_incorrect_groups: bool = False


class ProofGraderServer(SimpleResourcesServer):
    config: ProofGraderConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return (
            "It waits in memory for every rollout of a problem, keyed by the problem text."
            if self.config.zero_reward_incorrect_groups
            else None
        )

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    ProofGraderServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ProofGraderServer.run_webserver()  # noqa: F401
