from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LabBridge(SimpleResponsesAPIAgent):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Its entrypoint lives outside bridge_agent, so the module path uvicorn workers import does not resolve."

    async def run(self, body):
        return {}


if __name__ == "__main__":
    LabBridge.run_webserver()
