from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class R(BaseMultiRewardVerifyResponse):
    pass


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> R:
        if not body.response:
            return R(reward_components={"a": 0.0})
        return R(reward=1.0, reward_components={"a": 1.0})


if __name__ == "__main__":
    S.run_webserver()
