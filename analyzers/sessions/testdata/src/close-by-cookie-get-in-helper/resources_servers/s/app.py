from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[session_id] = object()
        return None

    async def close_resources_session(self, request: Request, body):  # want "GL303 S.close_resources_session releases the session's"
        self._drop(request)
    # The expectation stands outside the close: GL305 takes a mention of the
    # session id in the close (in a comment too) for a use of it.
    # want +2 `GL305 .*\(through S._drop\) finds the session through the session cookie only \(request.session.get\("session_id"\)\)`
    def _drop(self, request):
        self.envs.pop(request.session.get("session_id"), None)


if __name__ == "__main__":
    S.run_webserver()
