"""Reaches the framework base through an import alias."""

from nemo_gym.base_resources_server import BaseVerifyRequest as VerifyIn
from nemo_gym.base_resources_server import BaseVerifyResponse as VerifyOut
from nemo_gym.base_resources_server import SimpleResourcesServer as SRS


class AliasedServer(SRS):
    cache: dict[str, float] = {}

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Rewards are memoised in a process-local cache."

    async def verify(self, body: VerifyIn) -> VerifyOut:
        reward = self.cache.setdefault(body.response_text, float(len(body.response_text) % 2))
        return VerifyOut(response_text=body.response_text, reward=reward)
