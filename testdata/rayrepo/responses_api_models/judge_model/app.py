"""Serves the judge through the same engine library; data-parallel runs place ranks with Ray."""

from typing import ClassVar

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class JudgeModel(SimpleResponsesAPIModel):
    ray_enabled: ClassVar[bool] = True
    engine_env: dict = {}

    async def responses(self, body: dict) -> dict:
        return {"output": [], "env": self.engine_env}


if __name__ == "__main__":
    JudgeModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeModel.run_webserver()  # noqa: F401
