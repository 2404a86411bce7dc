from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer


class Notes(SimpleResourcesServer):
    """Look-alikes: the close records closed ids, but the seed never refuses them."""

    def model_post_init(self, context):
        self.notes = {}
        self._closed = set()

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        if sid in self._closed:
            print("seeding a closed session again")
        self.notes[sid] = []

    async def close_resources_session(self, body):  # want `GL303 Notes.close_resources_session releases the session's state \(self.notes.pop\(...\)\) but never fences the session`
        self.notes.pop(body.resources_session_id, None)
        self._closed.add(body.resources_session_id)


if __name__ == "__main__":
    Notes.run_webserver()
