from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# Raises: the masked sample is returned instead, with the exception's message
# as the reason; the class and the dump come from the verify's other return.
class Raising(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = {"won": False}  # want "GL322"

    async def verify(self, request: Request, body):
        game = self.games.get(request.session[SESSION_ID_KEY])
        if not game:
            raise HTTPException(status_code=400, detail="Session not initialized.")  # want "GL306 Raising.verify raises HTTPException\\(400\\)"
        return BaseVerifyResponse(**body.model_dump(), reward=float(game["won"]))


if __name__ == "__main__":
    Raising.run_webserver()
