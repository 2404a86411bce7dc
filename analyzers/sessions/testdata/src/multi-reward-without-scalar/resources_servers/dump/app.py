from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class QuizRequest(BaseVerifyRequest):
    expected: str


class R(BaseMultiRewardVerifyResponse):
    pass


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: QuizRequest) -> R:
        return R(**body.model_dump(), reward_components={"a": 1.0})  # want "GL315 S.verify returns R, a multi-reward response, without reward on every path"


if __name__ == "__main__":
    S.run_webserver()
