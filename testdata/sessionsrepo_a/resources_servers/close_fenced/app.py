"""The corrected shape: seed refuses fenced sessions, close releases by body id and fences."""

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesCloseSessionRequest,
    ResourcesCloseSessionResponse,
    ResourcesSeedRejectedError,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    SimpleResourcesServer,
    lost_session_verification,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class FencedServer(SimpleResourcesServer):
    sandboxes: dict = {}

    def model_post_init(self, context):
        self._fences: ResourcesSessionFences[str] = ResourcesSessionFences(60.0)
        self._locks = ResourcesSessionLocks()

    async def seed_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self._fences.raise_if_fenced(body.resources_session_id)
            if not body.task_data:
                raise ResourcesSeedRejectedError("task_data is empty")
            self.sandboxes[body.resources_session_id] = await self.start_sandbox(body.task_data)
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest) -> ResourcesCloseSessionResponse:
        async with self._locks.locked(body.resources_session_id):
            await self._release(body.resources_session_id)
            self._fences.fence(body.resources_session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)

    async def _release(self, sid: str) -> None:
        sandbox = self.sandboxes.pop(sid, None)
        if sandbox is not None:
            await sandbox.stop()

    async def start_sandbox(self, task_data):
        return object()

    async def verify(self, body) -> BaseVerifyResponse:
        if body.resources_session_id not in self.sandboxes:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("sandbox gone")))
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    FencedServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = FencedServer.run_webserver()
