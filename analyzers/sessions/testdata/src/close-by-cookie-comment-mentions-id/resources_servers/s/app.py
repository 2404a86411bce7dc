from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[request.session[SESSION_ID_KEY]] = object()

    # Today's behaviour, not the rule's intent: GL305 reads the close's source
    # text for a use of the body's id, so the comment below counts as one and
    # the cookie-only close is not reported.
    async def close_resources_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]  # the same id as body.resources_session_id
        self.envs.pop(sid, None)
        self._fences.fence(sid, None)


if __name__ == "__main__":
    S.run_webserver()
