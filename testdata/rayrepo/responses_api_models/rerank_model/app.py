"""Reranks candidates with the local model; the replicas are the parent's."""

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from responses_api_models.local_model.app import LocalModel


class RerankModel(LocalModel):
    top_k: int = 5

    async def responses(self, body: dict) -> dict:
        result = await super().responses(body)
        result["output"] = result["output"][: self.top_k]
        return result


if __name__ == "__main__":
    RerankModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RerankModel.run_webserver()  # noqa: F401
