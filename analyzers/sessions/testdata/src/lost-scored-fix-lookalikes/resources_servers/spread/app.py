from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# A spread of what may not be a dict (a helper's result), and two spreads:
# merging them with `|` is not the same call, so no fix.
class Spreads(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.games:
            return BaseVerifyResponse(**self.fields(body), reward=0.0)  # want "GL306 Spreads.verify returns a reward"
        if not self.games.get(sid):
            return BaseVerifyResponse(**body.model_dump(), **{"turns": 0}, reward=0.0)  # want "GL306 Spreads.verify returns a reward"
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)

    def fields(self, body):
        return body.model_dump()


if __name__ == "__main__":
    Spreads.run_webserver()
