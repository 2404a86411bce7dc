from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


class Unguarded(SimpleResourcesServer):  # want "GL302 Unguarded keeps per-session state"
    async def seed_session(self, request: Request, body):
        self.scores[request.session[SESSION_ID_KEY]] = 0  # want "GL322 Unguarded.seed_session writes"

    def _score(self, sid):
        if sid not in self.scores:
            raise HTTPException(status_code=400, detail="no score")
        return self.scores[sid]

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.scores:
            print("the session is gone")
        score = self._score(sid)  # want `GL306 Unguarded.verify calls Unguarded._score, which raises HTTPException\(400\) when the session's state self.scores is missing`
        return BaseVerifyResponse(**body.model_dump(), reward=float(score))

    async def verify_later(self, request: Request, body):
        return lost_session_verification("unused")


if __name__ == "__main__":
    Unguarded.run_webserver()
