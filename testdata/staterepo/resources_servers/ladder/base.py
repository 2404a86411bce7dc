"""Ladder games. The base keeps each game by the game_id the agent sends in the body."""

from typing import Dict

from fastapi import Request
from pydantic import Field

from nemo_gym.base_resources_server import SimpleResourcesServer


class LadderGame:
    def climb(self, rungs: int) -> int:
        return rungs


class LadderBase(SimpleResourcesServer):
    games: Dict[str, LadderGame] = Field(default_factory=dict)

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/climb")(self.climb)
        return app

    async def seed_session(self, request: Request, body):
        self.games[body.game_id] = LadderGame()
        return {}

    async def climb(self, request: Request, body):
        return {"height": self._game(body).climb(body.rungs)}

    def _game(self, body) -> LadderGame:
        return self.games[body.game_id]
