"""Answers with a fixed completion."""

from nemo_gym.server_runtime.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_runtime.server_utils import is_nemo_gym_fastapi_entrypoint


class PlainModel(SimpleResponsesAPIModel):
    async def responses(self, body):
        return {"output_text": "ok"}


if __name__ == "__main__":
    PlainModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = PlainModel.run_webserver()
