"""Drafts an answer, critiques it, and revises once."""

from app import GraphAgentAdapter, GraphState
from util import last_text


class ReflectAgent(GraphAgentAdapter):
    rounds: int = 1

    def build_graph(self) -> list[str]:
        return ["draft"] + ["critique", "revise"] * self.rounds

    def summarize(self, state: GraphState) -> str:
        return last_text(state.messages)


if __name__ == "__main__":
    ReflectAgent.run_webserver()
