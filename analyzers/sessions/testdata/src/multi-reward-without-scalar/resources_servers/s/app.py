from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class QuizVerifyResponse(BaseMultiRewardVerifyResponse):
    answer_reward: float = 0.0


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> QuizVerifyResponse:
        parts = {"answer": 1.0, "format": 0.5}
        if not body.response:
            return QuizVerifyResponse(response=body.response, reward_components={"answer": 0.0, "format": 0.0})  # want "GL315 S.verify returns QuizVerifyResponse, a multi-reward response, without reward on every path; single-reward consumers read the scalar help: set reward= to the scalar aggregate"

        def score(x):
            return QuizVerifyResponse(reward=x, reward_components=parts)

        return QuizVerifyResponse(response=body.response, reward_components=parts, answer_reward=1.0)  # related "another return without reward"


if __name__ == "__main__":
    S.run_webserver()
