from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

# The helper's key is the session's id (its only caller passes the cookie's),
# so the dictionary is keyed by the session and never reported, whatever
# verify reads it by.
class MazeServer(SimpleResourcesServer):
    def _remember(self, sid, maze):
        self.envs[sid] = maze

    async def seed_session(self, request: Request, body):
        self._remember(request.session[SESSION_ID_KEY], Maze(body.layout))

    async def verify(self, request: Request, body):
        return self.envs[body.env_id].score()


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
