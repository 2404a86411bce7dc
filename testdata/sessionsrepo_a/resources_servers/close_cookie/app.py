"""GL305: a close that finds the session through the cookie only."""

from fastapi import Request

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionResponse,
    ResourcesSessionFences,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class CookieServer(SimpleResourcesServer):
    envs: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self.envs[session_id] = object()
        return None

    async def close_resources_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self.envs.pop(session_id, None)
        self._fences.fence(session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=session_id)

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    CookieServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CookieServer.run_webserver()
