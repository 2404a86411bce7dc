from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse
from nemo_gym import verify_responses as vr
from pydantic import BaseModel
from somewhere_unknown import Mystery


class QuizVerifyResponse(BaseVerifyResponse):  # related "class QuizVerifyResponse is a BaseVerifyResponse"
    reward_components: dict[str, float] = {}  # want "GL314 QuizVerifyResponse declares reward_components on a BaseVerifyResponse subclass instead of subclassing BaseMultiRewardVerifyResponse help: derive QuizVerifyResponse from"


class AliasedResponse(vr.BaseVerifyResponse):
    reward_components: dict  # want "GL314 AliasedResponse declares reward_components"


# Look-alikes: the field on the multi-reward base's subclass, on a model that
# is not a verify response, inherited from the class reported above, and on a
# class with a base gymlint cannot resolve.
class MultiResponse(BaseMultiRewardVerifyResponse):
    reward_components: dict[str, float]


class Breakdown(BaseModel):
    reward_components: dict[str, float]


class DerivedQuizResponse(QuizVerifyResponse):
    reward_components: dict[str, float] = {"a": 0.0}


class Unknown(Mystery, BaseVerifyResponse):
    reward_components: dict


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> QuizVerifyResponse:
        parts = {"a": 1.0}
        return QuizVerifyResponse(reward=1.0, reward_components=parts)


if __name__ == "__main__":
    S.run_webserver()
