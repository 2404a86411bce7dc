"""GL303: a stateful server whose close only defers to the framework's default."""

from fastapi import Request

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class SuperOnlyServer(SimpleResourcesServer):
    notes: dict = {}

    async def seed_session(self, request: Request, body):
        return None

    async def take_note(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.notes[sid] = body.text

    async def close_resources_session(self, body):
        return await super().close_resources_session(body)

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    SuperOnlyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SuperOnlyServer.run_webserver()
