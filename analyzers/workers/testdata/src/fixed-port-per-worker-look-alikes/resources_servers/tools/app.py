from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import os
import subprocess

import httpx
import uvicorn

from .launcher import Popen


def bind(addr):
    return addr


class ToolsServer(SimpleResourcesServer):
    def model_post_init(self, context):
        # Port 0: the system picks a free port for each worker.
        self._config = uvicorn.Config(self._sidecar_app, port=0)
        # A port computed per worker.
        port = 9000 + os.getpid() % 1000
        subprocess.Popen(["sidecar", "--port", str(port)])
        # A client of a fixed port, not a server on it.
        httpx.get(f"http://localhost:{self.config.sidecar_port}/health")
        # A repository function called Popen, and a local function called bind.
        Popen(["sidecar", "--port", str(self.config.sidecar_port)])
        bind(("0.0.0.0", 8000))
        # A parameter: each caller may pass its own.
        self._serve(self.config.sidecar_port + 1)

    def _serve(self, port):
        uvicorn.run(self._sidecar_app, port=port)

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    # python app.py runs one process: not a worker's start-up.
    uvicorn.run("app:app", port=8000)


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()
