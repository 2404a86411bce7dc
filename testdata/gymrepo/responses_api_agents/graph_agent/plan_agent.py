"""Plans every tool call up front, then executes the plan without a graph."""

from app import GraphState

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent


class PlanAgent(SimpleResponsesAPIAgent):
    max_steps: int = 4

    async def run(self, body: dict) -> dict:
        state = GraphState(messages=[body])
        return {"plan": [f"step {i}" for i in range(self.max_steps)], "messages": state.messages}


if __name__ == "__main__":
    PlanAgent.run_webserver()
