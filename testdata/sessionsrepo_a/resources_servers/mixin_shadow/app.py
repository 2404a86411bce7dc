"""GL302: the close is on a mixin listed after the framework base, so the default wins."""

from fastapi import Request

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class CloseMixin:
    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)


class GameServer(SimpleResourcesServer, CloseMixin):
    games: dict = {}

    async def seed_session(self, request: Request, body):
        self.games.setdefault(request.session[SESSION_ID_KEY], {"moves": []})
        return None

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    GameServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = GameServer.run_webserver()
