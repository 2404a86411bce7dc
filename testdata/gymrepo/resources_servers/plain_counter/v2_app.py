"""Rewrite of the counter that scores partial credit (unfinished)."""

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer

from resources_servers.plain_counter.app import CountVerifyRequest


class PlainCounterV2Server(SimpleResourcesServer):
    async def verify(self, body: CountVerifyRequest) -> BaseVerifyResponse:
        expected = sum(
            1 for n in body.numbers if n > body.threshold
        distance = abs(int(body.response_text or 0) - expected)
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0 / (1 + distance))


if __name__ == "__main__":
    PlainCounterV2Server.run_webserver()
