import time

from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionConflictError, SimpleResourcesServer


class Games(SimpleResourcesServer):
    """A dict of close times with an expiry, checked by the seed through a helper."""

    def model_post_init(self, context):
        self.games = {}
        self._closed_at = {}

    def _fenced(self, sid):
        closed = self._closed_at.get(sid)
        return closed is not None and time.monotonic() - closed < 600

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        if (t := self._closed_at.get(sid)) is not None and time.monotonic() - t < 600:
            raise ResourcesSessionConflictError("closed")
        self.games[sid] = {"moves": []}

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        self.games.pop(sid, None)
        self._closed_at[sid] = time.monotonic()


if __name__ == "__main__":
    Games.run_webserver()
