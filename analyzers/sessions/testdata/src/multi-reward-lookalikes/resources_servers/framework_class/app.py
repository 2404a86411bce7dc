from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseMultiRewardVerifyResponse, BaseVerifyRequest, BaseVerifyResponse


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response=body.response)


if __name__ == "__main__":
    S.run_webserver()
