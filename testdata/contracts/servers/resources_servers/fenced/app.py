from fastapi import HTTPException, Request

from nemo_gym.base_resources_server import SimpleResourcesServer


class FencedServer(SimpleResourcesServer):
    """Fences by hand, before the framework had ResourcesSessionFences: no GL303."""

    def model_post_init(self, context):
        self.boards = {}
        self._closed = set()

    def multiple_workers_unsupported_reason(self):
        return "the boards live in this process"

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        if sid in self._closed:
            raise HTTPException(status_code=409, detail=f"session {sid} was closed")
        self.boards[sid] = []
        return {}

    async def close_resources_session(self, body):
        self.boards.pop(body.resources_session_id, None)
        self._closed.add(body.resources_session_id)
        return {}


if __name__ == "__main__":
    FencedServer.run_webserver()
