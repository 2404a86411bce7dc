from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        app.post("/close")(self.close)
        return app

    async def seed_session(self, request: Request, body):
        env_id = new_id()
        self.envs[env_id] = Maze()
        return {"env_id": env_id}

    async def step(self, request: Request, body):
        return self.envs[body.env_id].step(body.move)

    async def close(self, request: Request, body):
        self.envs.pop(body.env_id, None)

    def multiple_workers_unsupported_reason(self):
        return "envs are kept by env_id"


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()  # want `^GL106 module-level app is never served, as MazeServer.multiple_workers_unsupported_reason\(\)`
