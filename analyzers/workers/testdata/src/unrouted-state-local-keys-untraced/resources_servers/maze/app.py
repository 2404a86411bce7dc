from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# Both keys are locals that gymlint cannot trace to a body field (a call of
# something else computes them): neither side is shown to be a body field,
# so nothing is reported.
class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        key = derive_key(body)
        self.envs[key] = Maze()

    async def verify(self, request: Request, body):
        key = derive_key(body)
        return self.envs[key].score()


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
