import asyncio
import json
import os
from collections import defaultdict

from pydantic import Field
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

LOG_PATH = os.environ.get("BENCH_LOG_PATH", None)


class Rows:
    def __init__(self):
        self.scores = []
        self.done = asyncio.Event()


class BenchServer(SimpleResourcesServer):
    sets: dict = Field(default_factory=lambda: defaultdict(Rows))
    _log_lock: asyncio.Lock = None

    async def verify(self, body):
        # The scorer is found by a computed name: no route names it.
        score = getattr(self, f"_score_{body.benchmark}")
        result = await score(body)
        if LOG_PATH:
            async with self._log_lock:  # an asyncio lock serializes one worker only
                with open(LOG_PATH, "a") as f:  # want `^GL111 route BenchServer.verify writes the fixed path LOG_PATH \(open\(\.\.\., "a"\)\) without a file lock`
                    f.write(json.dumps(result) + "\n")
        return result

    async def _score_grouped(self, body):
        rows = self.sets[body.group_id]
        rows.scores.append(1)  # related "the request adds itself to self.sets\\[body.group_id\\] here"
        if len(rows.scores) >= body.group_size:
            rows.done.set()
        await rows.done.wait()  # want `^GL112 BenchServer._score_grouped waits for its group in self.sets, keyed by the body field group_id, to fill`
        return {"reward": float(all(rows.scores))}


if __name__ == "__main__":
    BenchServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BenchServer.run_webserver()  # related "module-level app"
