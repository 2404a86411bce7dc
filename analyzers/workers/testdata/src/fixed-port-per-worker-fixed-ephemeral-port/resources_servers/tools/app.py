from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import socket
import subprocess
import sys


class ToolsServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.use_sidecar:
            self._start_sidecar()
        return app

    def _start_sidecar(self):
        # The fixed shape: each worker asks the system for a free port and
        # hands it to its own sidecar.
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        cmd = [sys.executable, "-m", "tool_sidecar", "--port", str(port)]
        self._sidecar = subprocess.Popen(cmd)
        self._url = f"http://127.0.0.1:{port}/mcp"

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()
