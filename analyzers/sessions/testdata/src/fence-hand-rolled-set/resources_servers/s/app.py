from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionConflictError, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Sandboxes(SimpleResourcesServer):
    """The fence is a set of closed ids that the seed refuses: a fence of its own."""

    def model_post_init(self, context):
        self.sandboxes = {}
        self._closed = set()

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        if sid in self._closed:
            raise ResourcesSessionConflictError(f"session {sid} was closed")
        self.sandboxes[sid] = object()

    async def close_resources_session(self, body):
        self.sandboxes.pop(body.resources_session_id, None)
        self._closed.add(body.resources_session_id)


if __name__ == "__main__":
    Sandboxes.run_webserver()
