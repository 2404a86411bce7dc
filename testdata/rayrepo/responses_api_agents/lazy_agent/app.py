"""Loads its Ray-based batch scorer only when asked to score a batch."""

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LazyAgent(SimpleResponsesAPIAgent):
    async def run(self, body: dict) -> dict:
        if body.get("batch"):
            import batch_scorer

            return batch_scorer.score_all(body["batch"])
        return {"output": body.get("input", "")}


if __name__ == "__main__":
    LazyAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LazyAgent.run_webserver()  # noqa: F401
