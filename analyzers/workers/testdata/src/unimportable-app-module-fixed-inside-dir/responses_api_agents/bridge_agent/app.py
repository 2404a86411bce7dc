from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class BridgeAgent(SimpleResponsesAPIAgent):
    async def run(self, body):
        return {}


if __name__ == "__main__":
    BridgeAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BridgeAgent.run_webserver()
