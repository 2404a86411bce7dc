from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import contextlib


class S(SimpleResourcesServer):
    async def close_resources_session(self, body):  # want "GL303 S.close_resources_session releases the session's"  # related "close_resources_session reaches it"
        await self._stop(body.resources_session_id)
        with contextlib.suppress(Exception):  # want `GL304 .*\(self.pool.release\(...\)\).*with contextlib.suppress\(Exception\) and does not re-raise help: take self.pool.release\(...\) out of the contextlib.suppress block and let its failure propagate$`
            await self.pool.release(body.resources_session_id)

    async def _stop(self, sid):
        try:
            await self.containers[sid].shutdown()  # related "the release that may fail"
        except:  # want `GL304 .*\(through S._stop\) catches the failure of releasing the session's state \(self.containers\[sid\].shutdown\(...\)\) with a bare except`
            return


if __name__ == "__main__":
    S.run_webserver()
