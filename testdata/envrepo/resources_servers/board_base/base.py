"""The base of board-game resources servers; each game's own app.py starts its server."""

from nemo_gym.server_runtime.base_resources_server import BaseVerifyResponse, SimpleResourcesServer


class BoardServer(SimpleResourcesServer):
    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=float(self.score(body)))

    def score(self, body) -> float:
        return 0.0
