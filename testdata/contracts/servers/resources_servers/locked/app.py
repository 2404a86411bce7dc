import asyncio

from fastapi import HTTPException, Request

from nemo_gym.base_resources_server import SimpleResourcesServer


class LockedServer(SimpleResourcesServer):
    """Serializes its seed and close with a dict of locks of its own, and fences by hand: no GL310, no GL303."""

    def model_post_init(self, context):
        self.sandboxes = {}
        self._closed = set()
        self._locks = {}

    def multiple_workers_unsupported_reason(self):
        return "the sandboxes live in this process"

    def _lock(self, sid):
        return self._locks.setdefault(sid, asyncio.Lock())

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        async with self._lock(sid):
            if sid in self._closed:
                raise HTTPException(status_code=409, detail="closed")
            if sid not in self.sandboxes:
                sandbox = await self.start_sandbox()
                self.sandboxes[sid] = sandbox
        return {}

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        async with self._lock(sid):
            sandbox = self.sandboxes.get(sid)
            if sandbox is not None:
                await sandbox.stop()
                self.sandboxes.pop(sid, None)
            self._closed.add(sid)
        return {}

    async def start_sandbox(self):
        return object()


if __name__ == "__main__":
    LockedServer.run_webserver()
