from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.maze.base import MazeBase


class MazeServer(MazeBase):
    pass


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()  # related "module-level app of resources_servers/maze/app.py: uvicorn"
