"""Translation scoring, optionally with COMET on a Ray GPU actor pool."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.config_types import BaseResourcesServerConfig
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class TranslateEvalConfig(BaseResourcesServerConfig):
    compute_comet: bool = False
    comet_gpus: int = 1


class TranslateEvalServer(SimpleResourcesServer):
    config: TranslateEvalConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if not self.config.compute_comet:
            return None
        return "Each worker builds its own Ray GPU actor pool for COMET, so several workers multiply the GPU actors."

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    TranslateEvalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TranslateEvalServer.run_webserver()  # noqa: F401
