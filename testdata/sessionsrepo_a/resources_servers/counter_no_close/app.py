"""GL302: per-session state kept in the seed, and only an ad-hoc close."""

from fastapi import Request

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class CounterServer(SimpleResourcesServer):
    counters: dict = {}

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self.counters[session_id] = body.initial
        return None

    async def increment(self, request: Request, body):
        self.counters[request.session[SESSION_ID_KEY]] += body.count

    async def end_session(self, request: Request):
        self.counters.pop(request.session[SESSION_ID_KEY], None)

    async def verify(self, request: Request, body) -> BaseVerifyResponse:
        count = self.counters.get(request.session[SESSION_ID_KEY], 0)
        return BaseVerifyResponse(reward=float(count == body.expected))


if __name__ == "__main__":
    CounterServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CounterServer.run_webserver()
