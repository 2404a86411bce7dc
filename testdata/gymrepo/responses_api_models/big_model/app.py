"""Proxies Responses API calls to one or more OpenAI-compatible endpoints."""

import hashlib

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class BigModel(SimpleResponsesAPIModel):
    base_urls: list[str] = ["http://localhost:8000/v1"]
    model: str = "big-model-8b"

    def pick_endpoint(self, session_id: str) -> str:
        digest = hashlib.sha256(session_id.encode()).digest()
        return self.base_urls[int.from_bytes(digest[:8], "big") % len(self.base_urls)]

    async def responses(self, body: dict) -> dict:
        return {"model": self.model, "output": []}


if __name__ == "__main__":
    BigModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BigModel.run_webserver()  # noqa: F401
