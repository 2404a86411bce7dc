from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# A comment among the arguments, which the rewrite would drop: no fix.
class Commented(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):
        if request.session[SESSION_ID_KEY] not in self.games:  # want +1 "GL306 Commented.verify returns a reward"
            return BaseVerifyResponse(
                **body.model_dump(),
                # nothing to score
                reward=0.0,
            )
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)


if __name__ == "__main__":
    Commented.run_webserver()
