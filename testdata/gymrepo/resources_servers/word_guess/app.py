"""Word-guessing game: the policy reads clues and names the hidden word."""

from __future__ import annotations

import re

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


try:
    from .helpers import normalize_guess
except ImportError:
    from helpers import normalize_guess


GUESS_TAG = re.compile(r"<guess>\s*([A-Za-z\-]+)\s*</guess>")


class WordGuessVerifyRequest(BaseVerifyRequest):
    target: str
    clues: list[str] = []


class WordGuessServer(SimpleResourcesServer):
    max_clues: int = 5

    async def verify(self, body: WordGuessVerifyRequest) -> BaseVerifyResponse:
        match = GUESS_TAG.search(body.response_text)
        if match is None:
            return BaseVerifyResponse(response_text=body.response_text, reward=0.0)
        correct = normalize_guess(match.group(1)) == normalize_guess(body.target)
        match correct, len(body.clues):
            case (True, n) if n <= 2:
                reward = 1.0
            case (True, _):
                reward = 0.75
            case _:
                reward = 0.0
        if (extra := len(body.clues) - self.max_clues) > 0:
            reward = max(0.0, reward - 0.1 * extra)
        return BaseVerifyResponse(response_text=body.response_text, reward=reward)


if __name__ == "__main__":
    WordGuessServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = WordGuessServer.run_webserver()  # noqa: F401
