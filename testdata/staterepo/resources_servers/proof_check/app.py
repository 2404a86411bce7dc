from typing import Optional

from pydantic import model_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class ProofCheckConfig(BaseResourcesServerConfig):
    group_rollouts: bool = False
    checker_path: str = "checker"

    @model_validator(mode="after")
    def grouped_needs_one_worker(self):
        if not self.checker_path:
            raise ValueError("checker_path is required")
        if self.group_rollouts and (self.num_workers or 1) > 1:
            raise ValueError("group_rollouts waits for every rollout in one process")
        return self


class ProofCheckServer(SimpleResourcesServer):
    config: ProofCheckConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        if self.config.group_rollouts:
            return "It waits in memory for every rollout of a problem, keyed by the problem text."
        return None

    def model_post_init(self, context) -> None:
        if self.config.group_rollouts and self.config.num_workers not in (None, 1):
            raise RuntimeError("proof_check with group_rollouts runs with one worker")
        self._checker = load_checker(self.config.checker_path)

    async def verify(self, request, body):
        return {"reward": 1.0}


def load_checker(path: str):
    return object()


if __name__ == "__main__":
    ProofCheckServer.run_webserver()
