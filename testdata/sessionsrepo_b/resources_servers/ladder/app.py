from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.ladder.base import LadderBase


class LadderServer(LadderBase):
    pass


if __name__ == "__main__":
    LadderServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LadderServer.run_webserver()
