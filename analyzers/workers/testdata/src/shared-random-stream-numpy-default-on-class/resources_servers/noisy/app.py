from typing import Any

import numpy as np
from pydantic import PrivateAttr

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class NoisyServer(SimpleResourcesServer):
    _rng: Any = PrivateAttr(default_factory=lambda: np.random.default_rng(1234))  # related "self._rng is seeded here"

    async def verify(self, body):
        return {"reward": self._noise(body)}

    def _noise(self, body):
        rng = self._rng
        return body.score + rng.normal(0.0, 0.1)  # want `^GL109 NoisyServer._noise draws from self._rng, seeded once per worker as a class-body default by numpy.random.default_rng\(\.\.\.\)`


if __name__ == "__main__":
    NoisyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = NoisyServer.run_webserver()  # related "module-level app of resources_servers/noisy/app.py"
