from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# verify only tests whether an id was seen (`in`), which is not a lookup of
# another request's record: nothing is reported.
class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.seen[body.env_id] = True

    async def verify(self, request: Request, body):
        return {"reward": 1.0 if body.env_id in self.seen else 0.0}


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
