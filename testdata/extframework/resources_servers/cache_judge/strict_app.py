"""Stricter judge: same cache, but any hedge scores zero."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse

from resources_servers.cache_judge.app import CacheJudgeServer


class StrictJudgeServer(CacheJudgeServer):
    hedges: tuple[str, ...] = ("maybe", "probably")

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        if any(h in body.response_text.lower() for h in self.hedges):
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return await super().verify(body)


if __name__ == "__main__":
    StrictJudgeServer.run_webserver()
