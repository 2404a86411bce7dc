from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


# Each verify answers a missing counter with a reward or an exception; the
# fix answers it with the masked sample, in the verify's own response class
# and request dump, lost_session_verification imported into the framework's
# from-import.
class Counter(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.counters[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.counters:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)  # want "GL306 Counter.verify returns a reward"
        return BaseVerifyResponse(**body.model_dump(), reward=float(self.counters[sid]))


if __name__ == "__main__":
    Counter.run_webserver()
