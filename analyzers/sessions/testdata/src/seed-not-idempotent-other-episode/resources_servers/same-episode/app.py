from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
import asyncio


class S(SimpleResourcesServer):
    async def seed_session(self, body):
        sid = body.resources_session_id
        rec = self.games.get(sid)
        if rec is not None and rec["episode_id"] == body.episode_id:  # want "GL322 S.seed_session returns the existing session only for the same episode \\(`rec\\[\"episode_id\"\\] == body.episode_id`\\), then replaces a record bound to another episode with self.games\\[sid\\].*help: when the recorded episode differs, raise ResourcesSessionConflictError \\(409\\)"
            return None
        self.games[sid] = {"episode_id": body.episode_id, "task": body.task_data}  # related "per-session state self.games is written here"
        return None

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    S.run_webserver()
