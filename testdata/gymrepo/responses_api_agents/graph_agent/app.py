"""Adapter that exposes a compiled state graph as a Gym agent.

Abstract: concrete agents subclass GraphAgentAdapter and build the graph.
"""

from typing import Any

from pydantic import BaseModel, Field

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent


class GraphState(BaseModel):
    messages: list[dict[str, Any]] = Field(default_factory=list)
    done: bool = False


class GraphAgentAdapter(SimpleResponsesAPIAgent):
    checkpoints: dict[str, GraphState] = Field(default_factory=dict)

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Graph checkpoints are stored in this process, keyed by thread id."

    def build_graph(self) -> Any:
        raise NotImplementedError

    async def run(self, body: dict) -> dict:
        state = GraphState(messages=[body])
        return {"messages": state.messages}
