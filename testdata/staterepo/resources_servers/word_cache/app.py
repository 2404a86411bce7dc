"""Caches tokenizers by model name and scores each request on its own: safe with several workers."""

from typing import Dict

from fastapi import Request
from pydantic import Field

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def load_tokenizer(name: str):
    return object()


class WordCacheServer(SimpleResourcesServer):
    tokenizers: Dict[str, object] = Field(default_factory=dict)
    scratch: Dict[str, list] = Field(default_factory=dict)

    def _tokenizer(self, model: str):
        tok = self.tokenizers.get(model)
        if tok is None:
            tok = self.tokenizers[model] = load_tokenizer(model)
        return tok

    async def seed_session(self, request: Request, body):
        tok = self.tokenizers.get(body.model)
        if tok is None:
            self.tokenizers[body.model] = load_tokenizer(body.model)
        return {}

    async def verify(self, request: Request, body):
        self.scratch[body.rollout_id] = []
        self.scratch[body.rollout_id].append(self._tokenizer(body.model))
        result = len(self.scratch.pop(body.rollout_id))
        return {"reward": float(result)}


if __name__ == "__main__":
    WordCacheServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = WordCacheServer.run_webserver()  # noqa: F401
