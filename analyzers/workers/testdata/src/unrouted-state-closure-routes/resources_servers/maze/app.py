from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# Two routes are closures that setup_webserver registers: each is a route
# of its own (not start-up code), so a body-keyed write in one and a read in
# the other are reported.
class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()

        @app.post("/open")
        async def open_maze(body: OpenRequest):
            self.mazes[body.maze_id] = Maze(body.layout)  # want `^GL105 server class MazeServer keeps per-episode state in self.mazes keyed by body.maze_id, which session routing ignores: written in open_maze, read in move_in at line 19 help: key self.mazes by the session`
            return {}

        @app.post("/move")
        async def move_in(body: MoveRequest):
            return self.mazes[body.maze_id].move(body.direction)  # related "self.mazes is read here in move_in under body.maze_id"

        return app


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
