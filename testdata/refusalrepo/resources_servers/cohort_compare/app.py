"""Pairwise comparison of a prompt's rollouts."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class CohortCompareConfig(BaseResourcesServerConfig):
    verification_mode: str = "rollout_cohort"
    num_rollouts_per_prompt: int = 1


class CohortCompareServer(SimpleResourcesServer):
    config: CohortCompareConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.verification_mode == "fixed_baseline" or self.config.num_rollouts_per_prompt > 1:
            return "It collects a prompt's rollouts in memory."
        return super().multiple_workers_unsupported_reason()

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    CohortCompareServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CohortCompareServer.run_webserver()  # noqa: F401
