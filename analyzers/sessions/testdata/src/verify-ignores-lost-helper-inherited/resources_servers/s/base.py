from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Base(SimpleResourcesServer):  # want `GL302 S \(seed_session of Base\) keeps per-session state`
    async def seed_session(self, request: Request, body):
        self.envs[body.resources_session_id] = object()  # related "per-session state self.envs is written here, in"  # want "GL322 .*seed_session writes .* without first checking for an existing record"

    def _env(self, sid):
        return self.envs[sid]

    async def verify(self, request: Request, body):  # want `GL307 Base.verify reads the per-session state self.envs \(through Base._env\), written in Base.seed_session`
        return {"reward": self._env(body.resources_session_id).score()}
