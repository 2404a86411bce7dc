from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.verify_responses import BaseVerifyResponse


class CounterVerifyResponse(BaseVerifyResponse):
    turns: int


# Over several lines, with a field of its own that stays, and a reason.
class Turns(SimpleResourcesServer):  # want "GL302"
    async def seed_session(self, request: Request, body):
        self.turns[request.session[SESSION_ID_KEY]] = 0  # want "GL322"

    async def verify(self, request: Request, body) -> CounterVerifyResponse:
        turns = self.turns.get(request.session[SESSION_ID_KEY])
        if turns is None:  # want +1 "GL306 Turns.verify returns a reward"
            return CounterVerifyResponse(
                **body.model_dump(),
                reward=0.0,
                failure_reason="no turns recorded",
                turns=0,
            )
        return CounterVerifyResponse(**body.model_dump(), reward=1.0, turns=turns)


if __name__ == "__main__":
    Turns.run_webserver()
