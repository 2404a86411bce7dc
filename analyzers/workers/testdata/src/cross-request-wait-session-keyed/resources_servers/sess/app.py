from asyncio import Event
from collections import defaultdict

from fastapi import Request
from pydantic import Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class Turn:
    def __init__(self):
        self.parts = []
        self.event = Event()


class SessServer(SimpleResourcesServer):
    turns: dict = Field(default_factory=lambda: defaultdict(Turn))

    # The fixed shape: the entry is the routed session's, which routing
    # keeps on one worker.
    async def verify(self, request: Request, body):
        turn = self.turns[request.session[SESSION_ID_KEY]]
        turn.parts.append(body)
        if len(turn.parts) < 2:
            await turn.event.wait()
        return body


if __name__ == "__main__":
    SessServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SessServer.run_webserver()
