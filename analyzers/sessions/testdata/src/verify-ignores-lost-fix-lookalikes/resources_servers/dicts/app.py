from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# The verify answers with a dict: no response class for the masked sample.
# No fix.
class Dicts(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 1  # want "GL322"

    async def verify(self, request: Request, body):  # want "GL307 Dicts.verify reads the per-session state self.games"
        won = self.games.get(request.session[SESSION_ID_KEY], 0)
        return {"reward": float(won)}


if __name__ == "__main__":
    Dicts.run_webserver()
