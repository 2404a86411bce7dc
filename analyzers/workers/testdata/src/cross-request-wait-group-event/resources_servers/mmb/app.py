from asyncio import Event
from collections import defaultdict
from typing import Dict, List

from pydantic import BaseModel, ConfigDict, Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class Group(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    rewards: List[int] = Field(default_factory=list)
    event: Event = Field(default_factory=Event)


class GroupServer(SimpleResourcesServer):
    groups: Dict[str, Group] = Field(default_factory=lambda: defaultdict(Group))

    async def verify(self, body):
        group = self.groups[body.group]
        group.rewards.append(1)  # related `the request adds itself to self.groups\[body.group\] here`
        if len(group.rewards) == body.group_size:
            self.groups.pop(body.group)
            group.event.set()
        else:
            await group.event.wait()  # want `^GL112 GroupServer.verify waits for its group in self.groups, keyed by the body field group, to fill: a group split across workers never completes help: compute the group's result where the whole group is seen \(aggregate_metrics\), or override multiple_workers_unsupported_reason\(\) on GroupServer to return "It waits in memory for every request of a group, keyed by group in the request body, so a group split across workers never completes."$`
        return body


if __name__ == "__main__":
    GroupServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = GroupServer.run_webserver()  # related "module-level app of resources_servers/mmb/app.py: uvicorn"
