from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeBase(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        app.post("/close")(self.close)
        return app

    async def seed_session(self, request: Request, body):
        env_id = new_id()
        self.envs[env_id] = Maze()  # want `^GL105 server classes MazeServer, HardMazeServer keep per-episode state in self.envs keyed by body.env_id`
        return {"env_id": env_id}

    async def step(self, request: Request, body):
        return self.envs[body.env_id].step(body.move)  # related "self.envs is read here in step under body.env_id"

    async def close(self, request: Request, body):
        self.envs.pop(body.env_id, None)  # related "self.envs is read here in close under body.env_id"
