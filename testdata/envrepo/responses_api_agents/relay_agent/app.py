"""Relays the task to the policy model and back."""

from nemo_gym.server_runtime.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_runtime.server_utils import is_nemo_gym_fastapi_entrypoint


class RelayAgent(SimpleResponsesAPIAgent):
    async def run(self, body):
        return {"output": body}


if __name__ == "__main__":
    RelayAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RelayAgent.run_webserver()
