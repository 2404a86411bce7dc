"""Drives a sandboxed shell; tells Ray timeouts apart from tool errors."""

from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SandboxAgent(SimpleResponsesAPIAgent):
    async def run(self, body: dict) -> dict:
        from ray.exceptions import GetTimeoutError

        try:
            return {"output": body.get("input", "")}
        except GetTimeoutError:
            return {"output": "", "error": "sandbox timed out"}


if __name__ == "__main__":
    SandboxAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SandboxAgent.run_webserver()  # noqa: F401
