"""A terminal agent that can run without a resources server."""

from typing import Optional

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.config_types import BaseServerConfig, ResourcesServerRef
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class TerminalAgentConfig(BaseServerConfig):
    resources_server: Optional[ResourcesServerRef] = None


class TerminalAgent(SimpleResponsesAPIAgent):
    config: TerminalAgentConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.resources_server is None:
            return "Without a resources server its episode sessions are process-local."
        return None


if __name__ == "__main__":
    TerminalAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TerminalAgent.run_webserver()  # noqa: F401
