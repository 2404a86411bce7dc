"""Talks to a remote tool service; none of this is Ray."""

import raylib_compat
from tool_client import ToolClient, make_remote

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LookalikeAgent(SimpleResponsesAPIAgent):
    async def run(self, body: dict) -> dict:
        client = ToolClient("http://tools:8080")
        reply = client.remote("search", body)
        handle = make_remote(body)
        raylib_compat.ray_trace(reply)
        return {"output": await handle.options(timeout=5).remote(reply)}


if __name__ == "__main__":
    LookalikeAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LookalikeAgent.run_webserver()  # noqa: F401
