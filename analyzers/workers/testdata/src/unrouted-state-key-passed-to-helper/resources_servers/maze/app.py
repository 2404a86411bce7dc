from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# The key reaches the helper as a parameter: every call of the helper in the
# server passes a body field, so the helper's key is that field.
class MazeServer(SimpleResourcesServer):
    def _remember(self, env_id, maze):
        self.envs[env_id] = maze  # want `GL105 .*keyed by env_id \(the body field env_id\), which session routing ignores: written in _remember, read in verify at line 15 under body.env_id help: `

    async def seed_session(self, request: Request, body):
        self._remember(body.env_id, Maze(body.layout))

    async def verify(self, request: Request, body):
        return self.envs[body.env_id].score()  # related "self.envs is read here in verify under body.env_id"


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
