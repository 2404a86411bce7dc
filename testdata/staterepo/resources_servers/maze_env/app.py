"""A maze environment: seed_session mints an env_id that the agent sends back in each body."""

from collections import defaultdict
from typing import Dict
from uuid import uuid4

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class Maze:
    def step(self, move: str) -> float:
        return 0.0


class MazeStepRequest(BaseModel):
    env_id: str
    move: str


class MazeEnvServer(SimpleResourcesServer):
    envs: Dict[str, Maze] = Field(default_factory=dict)
    rewards: Dict[str, float] = Field(default_factory=lambda: defaultdict(float))
    turns: Dict[str, int] = Field(default_factory=dict)

    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/step")(self.step)
        app.post("/close")(self.close)
        return app

    async def seed_session(self, request: Request, body):
        env_id = str(uuid4())
        self.envs[env_id] = Maze()
        self.turns[request.session[SESSION_ID_KEY]] = 0
        return {"env_id": env_id}

    async def step(self, request: Request, body: MazeStepRequest):
        maze = self.envs[body.env_id]
        reward = maze.step(body.move)
        self.rewards[body.env_id] += reward
        self.turns[request.session[SESSION_ID_KEY]] += 1
        return {"reward": reward}

    async def close(self, request: Request, body):
        self.envs.pop(body.env_id, None)
        return {}

    async def verify(self, request: Request, body):
        turns = self.turns.pop(request.session[SESSION_ID_KEY], 0)
        return {"reward": self.rewards[body.response.env_id], "turns": turns}


if __name__ == "__main__":
    MazeEnvServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeEnvServer.run_webserver()  # noqa: F401
