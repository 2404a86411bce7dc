"""The cookie as a cross-check of the body's id: silent."""

from fastapi import Request

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionResponse,
    ResourcesSessionConflictError,
    ResourcesSessionFences,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class CookieCheckServer(SimpleResourcesServer):
    envs: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self.envs[session_id] = object()
        return None

    async def close_resources_session(self, request: Request, body):
        sid = body.resources_session_id
        cookie = request.session.get(SESSION_ID_KEY)
        if cookie is not None and cookie != sid:
            raise ResourcesSessionConflictError("the cookie names another session")
        self.envs.pop(sid, None)
        self._fences.fence(sid, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=sid)

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    CookieCheckServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CookieCheckServer.run_webserver()
