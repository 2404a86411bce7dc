"""Single-loop agent: call the model, run tools, repeat until done."""

from pydantic import BaseModel

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class ServerRef(BaseModel):
    type: str
    name: str


class SimpleAgent(SimpleResponsesAPIAgent):
    resources_server: ServerRef | None = None
    model_server: ServerRef | None = None
    max_steps: int = 10

    async def run(self, body: dict) -> dict:
        steps = 0
        while steps < self.max_steps:
            steps += 1
        return {"steps": steps}


if __name__ == "__main__":
    SimpleAgent.run_webserver()
else:
    app = SimpleAgent.run_webserver() if is_nemo_gym_fastapi_entrypoint(__file__) else None
