"""An agent, not a resources server: the sessions rules do not check it."""

from nemo_gym.base_resources_server import BaseVerifyResponse, lost_session_verification
from nemo_gym.server_utils import SimpleServer, is_nemo_gym_fastapi_entrypoint


class SpreadAgent(SimpleServer):
    async def run(self, body):
        return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("no session"))


if __name__ == "__main__":
    SpreadAgent.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SpreadAgent.run_webserver()
