"""A model server that owns a Ray GPU actor pool."""

from nemo_gym.base_responses_api_model import SimpleResponsesAPIModel


class GpuPoolModel(SimpleResponsesAPIModel):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Each worker builds its own Ray GPU actor pool, so several workers can fail to schedule them."

    async def responses(self, body: dict) -> dict:
        return {"output": []}


if __name__ == "__main__":
    GpuPoolModel.run_webserver()
