"""A stateless model proxy."""

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class PoolModel(SimpleResponsesAPIModel):
    async def responses(self, body: dict) -> dict:
        return {"output": []}


if __name__ == "__main__":
    PoolModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = PoolModel.run_webserver()  # noqa: F401
