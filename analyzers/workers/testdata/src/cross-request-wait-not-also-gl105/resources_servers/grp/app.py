from asyncio import Event

from pydantic import Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class Group:
    def __init__(self):
        self.rewards = []
        self.event = Event()


class GrpServer(SimpleResourcesServer):
    groups: dict = Field(default_factory=dict)

    async def seed_session(self, request, body):
        # Written by one route, read by another under a body field: GL105's
        # shape, but the state is a group verify waits for, so GL112
        # reports it and GL105 does not.
        self.groups[body.group] = Group()
        return {}

    async def verify(self, request, body):
        group = self.groups[body.group]
        group.rewards.append(1)  # related "the request adds itself"
        if len(group.rewards) < body.group_size:
            await group.event.wait()  # want `^GL112 GrpServer.verify waits for its group in self.groups, keyed by the body field group`
        return body


if __name__ == "__main__":
    GrpServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = GrpServer.run_webserver()  # related "module-level app"
