from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class NotesServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.notes = {}

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Notes live in the server's memory."

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/note")(self.note)
        return app

    async def seed_session(self, request: Request, body):
        self.notes[body.env_id] = []
        return {}

    async def note(self, request: Request, body):
        sid = body.env_id
        self.notes[sid].append(body.text)
        return {}

    async def verify(self, request: Request, body):
        return {"reward": float(len(self.notes.get(body.env_id, [])))}

    async def close_resources_session(self, request: Request, body):
        self.notes.pop(body.resources_session_id, None)
        return {}


if __name__ == "__main__":
    NotesServer.run_webserver()
