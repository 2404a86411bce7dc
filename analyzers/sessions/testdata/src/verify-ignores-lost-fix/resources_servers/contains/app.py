from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# The first read is the test of an if: the guard goes before it.
class Counter(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.counters[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):  # want "GL307 Counter.verify reads the per-session state self.counters"
        sid = request.session[SESSION_ID_KEY]
        reward = 0.0
        if sid in self.counters:
            reward = float(self.counters[sid] == body.expected)
        return BaseVerifyResponse(**body.model_dump(), reward=reward)


if __name__ == "__main__":
    Counter.run_webserver()
