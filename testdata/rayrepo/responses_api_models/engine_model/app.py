"""Serves a model through an inference engine library that shards it with Ray itself."""

from typing import ClassVar

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EngineModel(SimpleResponsesAPIModel):
    ray_enabled: ClassVar[bool] = True
    engine_kwargs: dict = {}

    async def responses(self, body: dict) -> dict:
        return {"output": [], "engine": self.engine_kwargs}


if __name__ == "__main__":
    EngineModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EngineModel.run_webserver()  # noqa: F401
