import asyncio

from pydantic import Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class AlikeServer(SimpleResourcesServer):
    cache: dict = Field(default_factory=dict)
    seen: dict = Field(default_factory=dict)

    async def verify(self, body):
        # A cache: get-or-create, no wait.
        entry = self.cache.get(body.task_id)
        if entry is None:
            entry = []
            self.cache[body.task_id] = entry
        entry.append(1)
        # A per-request local list, awaited.
        pending = []
        pending.append(asyncio.sleep(0))
        await asyncio.gather(*pending)
        # An append, then an await of something else.
        self.seen.setdefault(body.task_id, []).append(2)
        await asyncio.sleep(0)
        return body


if __name__ == "__main__":
    AlikeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = AlikeServer.run_webserver()
