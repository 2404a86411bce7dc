"""Writes the scenario plan that the dialog simulation follows."""

from fastapi import FastAPI

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent


def build_debug_app(agent: "DialogPlannerAgent") -> FastAPI:
    app = FastAPI(title="planner-debug")
    app.get("/plan")(agent.preview)
    return app


class DialogPlannerAgent(SimpleResponsesAPIAgent):
    scenarios: int = 3

    async def preview(self) -> list[str]:
        return [f"scenario {i}" for i in range(self.scenarios)]


if __name__ == "__main__":
    DialogPlannerAgent.run_webserver()
