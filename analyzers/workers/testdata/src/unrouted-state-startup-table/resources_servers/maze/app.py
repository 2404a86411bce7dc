from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        for name in self.config.layouts:
            self._load(name)

    def _load(self, name):
        self.layouts[name] = read_layout(name)

    async def verify(self, request: Request, body):
        return self.layouts[body.layout].score(body)


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
