from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer, lost_session_verification
from nemo_gym.server_utils import SESSION_ID_KEY


class Other(SimpleResourcesServer):  # want "GL302 Other keeps per-session state"
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.prompts[sid] = "p"  # want "GL322 Other.seed_session writes"
        self.answers[sid] = "a"

    def _answer(self, sid):
        if sid not in self.answers:
            raise HTTPException(status_code=400, detail="no answer")
        return self.answers[sid]

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.prompts:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("prompt is gone")))
        answer = self._answer(sid)  # want `GL306 Other.verify calls Other._answer, which raises HTTPException\(400\) when the session's state self.answers is missing`
        return BaseVerifyResponse(**body.model_dump(), reward=float(answer == body.response))


if __name__ == "__main__":
    Other.run_webserver()
