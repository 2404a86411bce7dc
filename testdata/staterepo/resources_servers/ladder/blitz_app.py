from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.ladder.base import LadderBase


class BlitzLadderServer(LadderBase):
    async def verify(self, request, body):
        return {"reward": 0.5}


if __name__ == "__main__":
    BlitzLadderServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BlitzLadderServer.run_webserver()  # noqa: F401
