"""Rewards a policy for counting the numbers above a threshold."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class CountVerifyRequest(BaseVerifyRequest):
    numbers: list[int]
    threshold: int


class PlainCounterServer(SimpleResourcesServer):
    async def verify(self, body: CountVerifyRequest) -> BaseVerifyResponse:
        expected = sum(1 for n in body.numbers if n > body.threshold)
        answer = body.response_text.strip()
        reward = 1.0 if answer == str(expected) else 0.0
        return BaseVerifyResponse(response_text=body.response_text, reward=reward)


if __name__ == "__main__":
    PlainCounterServer.run_webserver()
