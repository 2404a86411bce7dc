"""Envs kept by env_id from the body, but no module-level app: not multi-worker, so only undeclared-workers applies."""

from typing import Dict

from fastapi import Request
from pydantic import Field

from nemo_gym.base_resources_server import SimpleResourcesServer


class BareEnvsServer(SimpleResourcesServer):
    envs: Dict[str, dict] = Field(default_factory=dict)

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        return app

    async def seed_session(self, request: Request, body):
        self.envs[body.env_id] = {}
        return {}

    async def step(self, request: Request, body):
        return self.envs[body.env_id]


if __name__ == "__main__":
    BareEnvsServer.run_webserver()
