from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        key = body.env_id
        self.envs[key] = Maze()  # want `GL105 .*keyed by key \(the body field env_id\), which session routing ignores: written in seed_session, read in verify at line 12 help: `

    async def verify(self, request: Request, body):
        key = body.env_id
        return self.envs[key].score()  # related "self.envs is read here in verify under key"


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
