"""Multiple-choice questions; this file uses CRLF line endings."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MultipleChoiceRequest(BaseVerifyRequest):
    correct_letter: str


class MultipleChoiceServer(SimpleResourcesServer):
    async def verify(self, body: MultipleChoiceRequest) -> BaseVerifyResponse:
        picked = body.response_text.strip()[-1:].upper()
        return BaseVerifyResponse(response_text=body.response_text, reward=float(picked == body.correct_letter))


if __name__ == "__main__":
    MultipleChoiceServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MultipleChoiceServer.run_webserver()  # noqa: F401
