from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    def _existing(self, sid):
        return self.games.get(sid)

    async def seed_session(self, body):
        sid = body.resources_session_id
        if self._existing(sid) is not None:
            return None
        self.games[sid] = body.task_data

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    S.run_webserver()
