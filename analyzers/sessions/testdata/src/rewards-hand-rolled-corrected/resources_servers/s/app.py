from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class QuizVerifyResponse(BaseMultiRewardVerifyResponse):
    answer_reward: float = 0.0


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> QuizVerifyResponse:
        parts = {"answer": 1.0, "format": 0.5}
        return QuizVerifyResponse(reward=sum(parts.values()) / len(parts), reward_components=parts, answer_reward=1.0)


if __name__ == "__main__":
    S.run_webserver()
