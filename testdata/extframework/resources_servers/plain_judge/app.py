"""Exact-match judge with no state of its own."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class PlainJudgeRequest(BaseVerifyRequest):
    expected: str


class PlainJudgeServer(SimpleResourcesServer):
    async def verify(self, body: PlainJudgeRequest) -> BaseVerifyResponse:
        reward = float(body.response_text.strip() == body.expected.strip())
        return BaseVerifyResponse(**body.model_dump(), reward=reward)


if __name__ == "__main__":
    PlainJudgeServer.run_webserver()
