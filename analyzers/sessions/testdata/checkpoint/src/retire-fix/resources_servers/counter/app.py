from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer, lost_session_verification


# Plain records by the session's id: the override pops them (safe).
class Counter(SimpleResourcesServer):  # want "GL317 Counter keeps per-session state"
    async def seed_session(self, request: Request, body):
        self.counts.setdefault(body.resources_session_id, 0)
        self.moves.setdefault(body.resources_session_id, [])
        return None

    async def close_resources_session(self, body):
        self.counts.pop(body.resources_session_id, None)
        self.moves.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def verify(self, request: Request, body):
        if body.resources_session_id not in self.counts:
            return body.model_dump() | lost_session_verification("gone")
        return {"reward": float(self.counts[body.resources_session_id])}


if __name__ == "__main__":
    Counter.run_webserver()
