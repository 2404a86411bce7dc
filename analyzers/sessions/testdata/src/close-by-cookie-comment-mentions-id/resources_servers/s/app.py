from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[request.session[SESSION_ID_KEY]] = object()  # want "GL322 .*seed_session writes .* without first checking for an existing record"

    # A comment that names body.resources_session_id is no use of it: the
    # close releases its state by the cookie's id.
    async def close_resources_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]  # want `GL305 S.close_resources_session finds the session through the session cookie only \(request.session\[SESSION_ID_KEY\]\) and releases its state by it \(self.envs.pop\(sid, None\)`
        self.envs.pop(sid, None)
        self._fences.fence(sid, None)


if __name__ == "__main__":
    S.run_webserver()
