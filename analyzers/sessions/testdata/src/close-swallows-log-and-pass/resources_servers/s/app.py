from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def close_resources_session(self, body):
        sandbox = self.sandboxes.pop(body.resources_session_id, None)
        try:
            await sandbox.kill()  # related "the release that may fail"
        except Exception:  # want `GL304 S.close_resources_session catches the failure of releasing the session's state \(sandbox.kill\(...\)\) with except Exception and does not re-raise help: re-raise after logging \(.raise.\), or let the exception propagate$`
            logger.exception("could not kill")
        self._fences.fence(body.resources_session_id, None)


if __name__ == "__main__":
    S.run_webserver()
