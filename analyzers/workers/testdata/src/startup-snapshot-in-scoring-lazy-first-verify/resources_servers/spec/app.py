import asyncio
import time
from typing import Optional

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from nemo_gym.server_utils import request as fetch


def running_delta(before, after):
    return {"drafts": after.drafts - before.drafts}


class SpecServer(SimpleResourcesServer):
    _before: Optional[dict] = None
    _before_time: Optional[float] = None
    _lock: Optional[asyncio.Lock] = None

    def model_post_init(self, context):
        self._lock = asyncio.Lock()
        if self.config.snapshot_at_init:
            asyncio.run(self._take_before())

    async def _scrape(self):
        async with await fetch(method="GET", url=self.config.metrics_url) as response:
            return parse(await response.text())

    async def _take_before(self):
        self._before = await self._scrape()  # related "self._before is measured here, once in every worker"
        self._before_time = time.time()  # related "self._before_time is measured here, once in every worker"

    async def _ensure_before(self):
        if self._before is not None:
            return
        async with self._lock:
            if self._before is None:
                await self._take_before()

    async def verify(self, body):
        await self._ensure_before()
        after = await self._scrape()
        delta = running_delta(self._before, after)  # want `^GL113 SpecServer.verify passes self._before, measured once per worker in SpecServer._take_before by self._scrape\(\), to running_delta, which subtracts it: each worker measures from its own start`
        elapsed = (time.time() - (self._before_time or time.time())) if self._before_time else 0.0  # want `^GL113 SpecServer.verify subtracts self._before_time, measured once per worker in SpecServer._take_before by time.time\(\)`
        return {"reward": 0.0, "delta": delta, "seconds": elapsed}


if __name__ == "__main__":
    SpecServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SpecServer.run_webserver()  # related "module-level app of resources_servers/spec/app.py"
