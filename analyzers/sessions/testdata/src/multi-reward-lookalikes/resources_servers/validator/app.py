from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class R(BaseMultiRewardVerifyResponse):
    def model_post_init(self, context):
        self.reward = sum(self.reward_components.values())


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> R:
        return R(reward_components={"a": 1.0})


if __name__ == "__main__":
    S.run_webserver()
