from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

MAZES = {}


# The rule reads the state a server keeps in its own attributes; a
# module-level dictionary is not one of those (yet), so nothing is reported.
class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        MAZES[body.env_id] = Maze(body.layout)

    async def verify(self, request: Request, body):
        return MAZES[body.env_id].score()


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
