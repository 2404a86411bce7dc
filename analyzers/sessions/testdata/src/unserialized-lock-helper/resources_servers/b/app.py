from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Boxes(SimpleResourcesServer):
    """A helper that returns something else than a lock: not serialized."""

    def model_post_init(self, context):
        self.boxes = {}
        self._fences = ResourcesSessionFences(600)

    def _session_ctx(self, sid):
        return open(f"/tmp/{sid}")

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        with self._session_ctx(sid):
            self._fences.raise_if_fenced(sid)  # related "the session's record is read here"
            if sid not in self.boxes:
                box = await self.spawn()  # want "GL310 Boxes.seed_session reads the fence, self._fences.raise_if_fenced\\(sid\\) \\(line 18\\), awaits here"
                self.boxes[sid] = box  # related "and written here, after the await"

    async def close_resources_session(self, body):
        self.boxes.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)

    async def spawn(self):
        return object()


if __name__ == "__main__":
    Boxes.run_webserver()
