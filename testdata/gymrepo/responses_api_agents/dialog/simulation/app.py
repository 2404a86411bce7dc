"""Simulates a user so that a policy can hold a multi-turn dialog."""

from fastapi import FastAPI

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class DialogSimulationAgent(SimpleResponsesAPIAgent):
    max_turns: int = 8

    async def run(self, body: dict) -> dict:
        return {"turns": self.max_turns}


if __name__ == "__main__":
    DialogSimulationAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app: FastAPI = DialogSimulationAgent.run_webserver()  # noqa: F401
