from uuid import uuid4

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer


class Exec(SimpleResourcesServer):  # want `GL302 Exec keeps per-session state in seed_session \(self.sessions\[sid\]\) but has no close_resources_session override help: `
    """The seed's key is an id it mints, reused when the exec id is known."""

    def model_post_init(self, context):
        self.by_exec = {}
        self.sessions = {}

    async def seed_session(self, request: Request, body):
        sid = self.by_exec.get(body.exec_id) or str(uuid4())
        self.by_exec[body.exec_id] = sid
        self.sessions[sid] = {"exec": body.exec_id}  # related "per-session state self.sessions is written here"
        return {"session": sid}


if __name__ == "__main__":
    Exec.run_webserver()
