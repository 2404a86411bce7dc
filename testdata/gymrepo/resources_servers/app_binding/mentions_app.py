"""Mentions app only in text.

To serve several workers, add `app = MentionsServer.run_webserver()` under
an `elif is_nemo_gym_fastapi_entrypoint(__file__):` branch.
"""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer

HINT = "app = MentionsServer.run_webserver()"
# app = MentionsServer.run_webserver()


class MentionsServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        """The reward ignores whether an app exists; app = None here is prose."""
        return BaseVerifyResponse(response_text=body.response_text, reward=0.0)


if __name__ == "__main__":
    MentionsServer.run_webserver()
