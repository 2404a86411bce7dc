"""GL303: a close that releases the state but never fences the session."""

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionRequest,
    ResourcesCloseSessionResponse,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class NoFenceServer(SimpleResourcesServer):
    sessions: dict = {}

    async def seed_session(self, body):
        self.sessions[body.resources_session_id] = {"task": body.task_id}
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest) -> ResourcesCloseSessionResponse:
        self.sessions.pop(body.resources_session_id, None)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    NoFenceServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = NoFenceServer.run_webserver()
