import asyncio
from collections import defaultdict

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

_buffers = defaultdict(list)


class CohortServer(SimpleResourcesServer):
    async def verify(self, body):
        reward = await self._cohort(prompt=body.prompt_id, body=body)
        return reward

    async def _cohort(self, *, prompt, body):
        fut = asyncio.get_running_loop().create_future()
        _buffers[prompt].append((body, fut))  # related `the request adds itself to _buffers\[prompt\] here`
        if len(_buffers[prompt]) >= self.config.n:
            for _, f in _buffers.pop(prompt):
                f.set_result(1.0)
        return await asyncio.wait_for(fut, timeout=60)  # want `^GL112 CohortServer._cohort waits for its group in _buffers, keyed by the body field prompt_id, to fill`


if __name__ == "__main__":
    CohortServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CohortServer.run_webserver()  # related "module-level app of resources_servers/cohort/app.py: uvicorn"
