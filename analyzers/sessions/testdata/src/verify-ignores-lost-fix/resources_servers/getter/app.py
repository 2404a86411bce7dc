from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


class GetterVerifyResponse(BaseVerifyResponse):
    steps: int = 0


# A lookup into a local that nothing tests for None: the guard tests the
# local, after it; the response class is the verify's annotation, the dump
# its return's.
class Getter(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self._sessions[request.session[SESSION_ID_KEY]] = {"steps": 0}  # want "GL322"

    async def verify(self, request: Request, body) -> GetterVerifyResponse:  # want "GL307 Getter.verify reads the per-session state self._sessions"
        state = self._sessions.get(request.session[SESSION_ID_KEY])  # the episode's record
        steps = state["steps"] if state else 0
        return GetterVerifyResponse(**body.model_dump(), reward=float(steps > 3), steps=steps)


if __name__ == "__main__":
    Getter.run_webserver()
