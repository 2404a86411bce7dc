"""An agent, not a resources server: the sessions rules do not apply."""

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SeedAgent(SimpleResponsesAPIAgent):
    sessions: dict = {}

    async def seed_session(self, request, body):
        if body.bad:
            raise ValueError("an agent's own method")
        self.sessions[body.resources_session_id] = 1
        return None


if __name__ == "__main__":
    SeedAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SeedAgent.run_webserver()
