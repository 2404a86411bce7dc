from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# A verify that answers with dicts: no response class to write the masked
# sample with, so no fix, for the return or the raise.
class Dicts(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.games:
            return {**body.model_dump(), "reward": 0.0}  # want "GL306 Dicts.verify returns a reward"
        if self.games.get(sid) is None:
            raise KeyError(sid)  # want "GL306 Dicts.verify raises KeyError"
        return {**body.model_dump(), "reward": 1.0}


if __name__ == "__main__":
    Dicts.run_webserver()
