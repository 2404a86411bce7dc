"""Agent that returns the model's first answer unchanged."""

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoAgent(SimpleResponsesAPIAgent):
    async def run(self, body: dict) -> dict:
        return {"output": body.get("input", "")}


if __name__ == "__main__":
    EchoAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoAgent.run_webserver()  # noqa: F401
