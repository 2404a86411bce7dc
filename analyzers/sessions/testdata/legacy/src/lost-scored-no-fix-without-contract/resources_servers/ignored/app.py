from fastapi import Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Ignored(SimpleResourcesServer):  # want "GL317"
    async def seed_session(self, request: Request, body):
        self.games.setdefault(request.session[SESSION_ID_KEY], 0)

    async def verify(self, request: Request, body):  # want "GL307 Ignored.verify reads the per-session state self.games"
        won = self.games.get(request.session[SESSION_ID_KEY], 0)
        return BaseVerifyResponse(**body.model_dump(), reward=float(won))

    async def close_resources_session(self, body):  # want "GL303"
        self.games.pop(body.resources_session_id, None)


if __name__ == "__main__":
    Ignored.run_webserver()
