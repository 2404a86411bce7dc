from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.add_api_route("/close", self.close, methods=["POST"])
        return app

    async def close(self, request: Request, body):
        self.scores[str(body.env_id)] = 1.0  # want `GL105 .*keyed by str\(body.env_id\), which session routing ignores: written in close, read in verify at line 15 under body.response.env_id help: `

    async def verify(self, body):
        return self.scores.pop(body.response.env_id, 0.0)


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
