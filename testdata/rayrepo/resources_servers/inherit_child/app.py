"""Retrieval with a stricter reward; all the Ray work is the parent's."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.inherit_parent.app import RetrievalServer


class StrictRetrievalServer(RetrievalServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        result = await super().verify(body)
        return BaseVerifyResponse(response_text=result.response_text, reward=float(result.reward == 1.0))


if __name__ == "__main__":
    StrictRetrievalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = StrictRetrievalServer.run_webserver()  # noqa: F401
