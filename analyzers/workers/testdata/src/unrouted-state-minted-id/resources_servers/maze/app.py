import uuid

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# The seed mints the id and hands it back for the client to send in later
# bodies: the write's key is minted, the read's a body field.
class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        env_id = uuid.uuid4().hex
        self.envs[env_id] = Maze(body.layout)  # want `GL105 .*keyed by body.env_id, which session routing ignores: written in seed_session under env_id, read in verify at line 16 help: `
        return {"env_id": env_id}

    async def verify(self, request: Request, body):
        return self.envs[body.env_id].score()


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
