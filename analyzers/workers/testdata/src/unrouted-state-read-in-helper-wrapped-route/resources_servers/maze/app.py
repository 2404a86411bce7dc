from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(failsafe(self.step))
        return app

    async def seed_session(self, request: Request, body):
        self.boards[body.board_id] = new_board()  # want `GL105 .*keyed by body.board_id, which session routing ignores: written in seed_session, read in _advance at line 18 help: `

    async def step(self, request: Request, body):
        return await self._advance(body)

    async def _advance(self, body):
        return self.boards[body.board_id]


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
