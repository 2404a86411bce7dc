"""Runs generated programs against unit tests, one sandboxed Ray task per program."""

from runner_lib.sandbox import run_tests

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class CodeRunnerServer(SimpleResourcesServer):
    timeout_s: float = 10.0

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        ref = run_tests.options(num_cpus=1, scheduling_strategy="SPREAD").remote(body.response_text, self.timeout_s)
        passed = await ref
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0 if passed else 0.0)


if __name__ == "__main__":
    CodeRunnerServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CodeRunnerServer.run_webserver()  # noqa: F401
