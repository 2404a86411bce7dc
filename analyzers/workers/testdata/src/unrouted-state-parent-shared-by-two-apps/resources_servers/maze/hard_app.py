from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.maze.base import MazeBase


class HardMazeServer(MazeBase):
    pass


if __name__ == "__main__":
    HardMazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = HardMazeServer.run_webserver()  # related "module-level app of resources_servers/maze/hard_app.py:"
