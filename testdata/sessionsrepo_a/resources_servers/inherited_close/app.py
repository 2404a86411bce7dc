"""A stateful seed whose close is inherited from a repository base: silent."""

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionResponse,
    ResourcesSessionFences,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class ClosingBase(SimpleResourcesServer):
    state: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def close_resources_session(self, body):
        del self.state[body.resources_session_id]
        self._fences.fence(body.resources_session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)


class ChildServer(ClosingBase):
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.state[body.resources_session_id] = {"turns": 0}
        return None

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    ChildServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ChildServer.run_webserver()
