from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        sid = body.resources_session_id
        if sid in self.sandboxes:  # related "the session's record is read here"
            return None
        sandbox = await self.provider.create(body.task_data)  # want "GL310 S.seed_session reads sid in self.sandboxes \\(line .*\\), awaits here, then writes self.sandboxes\\[sid\\] \\(line .*\\) without holding the session's lock.*hold `async with self._session_locks.locked\\(sid\\):` \\(a ResourcesSessionLocks\\)"
        self.sandboxes[sid] = sandbox  # related "and written here, after the await"  # related "per-session state self.sandboxes is written here, in"
        return None

    async def close_resources_session(self, body):  # want "GL303 S.close_resources_session releases the session's"
        sandbox = self.sandboxes.get(body.resources_session_id)  # related "the session's record is read here"
        if sandbox is not None:
            await sandbox.close()  # want `GL310 S.close_resources_session reads self.sandboxes.get\(body.resources_session_id\).*then writes del self.sandboxes\[body.resources_session_id\]`
        del self.sandboxes[body.resources_session_id]  # related "and written here, after the await"
        return None


if __name__ == "__main__":
    S.run_webserver()
