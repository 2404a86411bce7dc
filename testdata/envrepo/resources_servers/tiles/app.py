"""A sliding-tiles game on the board base."""

from resources_servers.board_base.base import BoardServer

from nemo_gym.server_runtime.server_utils import is_nemo_gym_fastapi_entrypoint


class TilesServer(BoardServer):
    def score(self, body) -> float:
        return 1.0 if getattr(body, "solved", False) else 0.0


if __name__ == "__main__":
    TilesServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TilesServer.run_webserver()
