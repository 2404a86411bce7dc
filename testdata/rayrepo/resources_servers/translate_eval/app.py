"""Scores translations with a neural quality estimator on a GPU worker."""

import asyncio

import ray

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def make_estimator(model_name: str):
    @ray.remote(num_gpus=1)
    def estimate(pairs: list[tuple[str, str]]) -> list[float]:
        return [min(len(src), len(tgt)) / max(len(src), len(tgt), 1) for src, tgt in pairs]

    return estimate


class TranslateEvalServer(SimpleResourcesServer):
    model_name: str = "qe-small"

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        estimate = make_estimator(self.model_name)
        ref = estimate.remote([(body.response_text, body.response_text)])
        scores = await asyncio.to_thread(ray.get, ref)
        return BaseVerifyResponse(response_text=body.response_text, reward=scores[0])


if __name__ == "__main__":
    TranslateEvalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TranslateEvalServer.run_webserver()  # noqa: F401
