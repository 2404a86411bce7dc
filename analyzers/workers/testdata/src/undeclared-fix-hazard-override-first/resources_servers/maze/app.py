from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer


class MazeServer(SimpleResourcesServer):  # want "GL101 server class MazeServer has neither"
    def model_post_init(self, context):
        """Load the layouts."""
        self.layouts = load_layouts()

    async def seed_session(self, request: Request, body):
        self.envs[body.resources_session_id] = Maze(self.layouts[body.layout])

    async def verify(self, request: Request, body):
        return self.envs[body.resources_session_id].score()


if __name__ == "__main__":
    MazeServer.run_webserver()
