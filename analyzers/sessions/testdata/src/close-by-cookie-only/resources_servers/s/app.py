from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[session_id] = object()  # related "per-session state self.envs is written here, in"
        return None
    # The expectation stands outside the close: GL305 takes a mention of the
    # session id in the close (in a comment too) for a use of it.
    # want +2 `GL305 S.close_resources_session finds the session through the session cookie only \(request.session\[SESSION_ID_KEY\]\) and releases its state by it \(self.envs.pop\(sid, None\), line 18\) help: release the state by body.resources_session_id, which a close without the cookie carries too$`
    async def close_resources_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.envs.pop(sid, None)
        self._fences.fence(sid, None)


if __name__ == "__main__":
    S.run_webserver()
