"""Compares the rows a generated SQL query returns with the gold query's."""

from eval_utils import compare_results

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SqlEvalServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        same = compare_results(body.response_text, "SELECT 1")
        return BaseVerifyResponse(response_text=body.response_text, reward=float(same))


if __name__ == "__main__":
    SqlEvalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SqlEvalServer.run_webserver()  # noqa: F401
