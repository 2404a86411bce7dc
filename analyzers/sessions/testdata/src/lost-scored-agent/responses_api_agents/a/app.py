from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import SESSION_ID_KEY


class A(SimpleResponsesAPIAgent):
    async def run(self, request, body):
        self.sessions[request.session[SESSION_ID_KEY]] = 1

    async def verify(self, request, body):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return {"reward": 0.0}


if __name__ == "__main__":
    A.run_webserver()
