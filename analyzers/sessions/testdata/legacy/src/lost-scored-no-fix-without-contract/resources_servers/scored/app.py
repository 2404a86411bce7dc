from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# A framework without lost_session_verification (whose verify response may
# have no mask_sample field): GL306 and GL307 offer no fix.
class Scored(SimpleResourcesServer):  # want "GL317"
    async def seed_session(self, request: Request, body):
        self.games.setdefault(request.session[SESSION_ID_KEY], 0)

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.games:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)  # want "GL306 Scored.verify returns a reward"
        if self.games.get(sid) is None:
            raise HTTPException(status_code=400, detail="no game")  # want "GL306 Scored.verify raises HTTPException\\(400\\)"
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)

    async def close_resources_session(self, body):  # want "GL303"
        self.games.pop(body.resources_session_id, None)


if __name__ == "__main__":
    Scored.run_webserver()
