from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


class Handler(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = {"won": False}  # want "GL322"

    async def verify(self, request: Request, body):
        try:
            game = self.games[request.session[SESSION_ID_KEY]]
        except KeyError:
            raise  # want "GL306 Handler.verify raises the exception it caught"
        return BaseVerifyResponse(**body.model_dump(), reward=float(game["won"]))


if __name__ == "__main__":
    Handler.run_webserver()
