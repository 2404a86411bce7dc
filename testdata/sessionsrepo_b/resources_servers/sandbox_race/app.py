"""Seed and close await between reading and writing the session's record without the lock (GL310);
verify reads the sandbox but never answers a lost session with lost_session_verification (GL307)."""

from nemo_gym.base_resources_server import BaseVerifyResponse, ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SandboxServer(SimpleResourcesServer):
    sandboxes: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def seed_session(self, body):
        sid = body.resources_session_id
        if sid in self.sandboxes:
            return None
        sandbox = await self._start(body.task_data)
        self.sandboxes[sid] = sandbox
        return None

    async def close_resources_session(self, body):
        sandbox = self.sandboxes.get(body.resources_session_id)
        if sandbox is not None:
            await sandbox.stop()
        self.sandboxes.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)
        return None

    async def _start(self, task_data):
        return object()

    async def verify(self, body) -> BaseVerifyResponse:
        reward = 0.0
        if body.resources_session_id in self.sandboxes:
            reward = await self.sandboxes[body.resources_session_id].score(body.answer)
        return BaseVerifyResponse(**body.model_dump(), reward=reward)


if __name__ == "__main__":
    SandboxServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SandboxServer.run_webserver()
