"""Agent that runs legal_bench tasks through the bridge harness.

It lives beside the resources server, but configs declare it as an agent.
"""

from responses_api_agents.bridge_agent.app import BridgeAgent


class LegalBridgeAgent(BridgeAgent):
    tasks_dir: str = "resources_servers/legal_bench/data/tasks"

    def task_path(self, task_id: str) -> str:
        return f"{self.tasks_dir}/{task_id}"


if __name__ == "__main__":
    LegalBridgeAgent.run_webserver()
