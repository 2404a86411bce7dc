from asyncio import Event
from collections import defaultdict

from pydantic import Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class Group:
    def __init__(self):
        self.rewards = []
        self.event = Event()


class RefusedServer(SimpleResourcesServer):
    groups: dict = Field(default_factory=lambda: defaultdict(Group))

    def multiple_workers_unsupported_reason(self):
        return "It waits in memory for every row of a group."

    async def verify(self, body):
        group = self.groups[body.group]
        group.rewards.append(1)
        if len(group.rewards) < body.group_size:
            await group.event.wait()
        return body


if __name__ == "__main__":
    RefusedServer.run_webserver()
