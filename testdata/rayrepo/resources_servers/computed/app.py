"""Grades proofs on a Ray pool, or in-process when USE_RAY is off."""

import os
from typing import ClassVar

import ray

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

USE_RAY = os.environ.get("PROOF_CHECK_USE_RAY", "1") == "1"


@ray.remote
def check_proof(text: str) -> bool:
    return text.rstrip().endswith("QED")


class ComputedServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = USE_RAY

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        ok = await check_proof.remote(body.response_text) if USE_RAY else body.response_text.endswith("QED")
        return BaseVerifyResponse(response_text=body.response_text, reward=float(ok))


if __name__ == "__main__":
    ComputedServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ComputedServer.run_webserver()  # noqa: F401
