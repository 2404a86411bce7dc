"""LLM-judge verifier that memoises verdicts per response text."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class CacheJudgeServer(SimpleResourcesServer):
    verdicts: dict[str, float] = {}

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Judge verdicts are memoised in this process and reused across requests."

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        reward = self.verdicts.setdefault(body.response_text, 0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=reward)


if __name__ == "__main__":
    CacheJudgeServer.run_webserver()
