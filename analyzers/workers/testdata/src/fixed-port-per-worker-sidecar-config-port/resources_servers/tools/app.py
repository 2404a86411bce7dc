from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import subprocess
import sys


class ToolsServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.use_sidecar:
            self._start_sidecar()  # related "ToolsServer.setup_webserver runs it at start-up in every worker"
        return app

    def _start_sidecar(self):
        cmd = [sys.executable, "-m", "tool_sidecar", "--port", str(self.config.sidecar_port)]
        self._sidecar = subprocess.Popen(cmd)  # want `^GL108 server class ToolsServer starts a subprocess server on the fixed port self.config.sidecar_port at start-up \(in ToolsServer._start_sidecar\), so every worker binds the same port help: give each worker its own port \(bind port 0 and read it back\) or start it once outside the workers, or override multiple_workers_unsupported_reason\(\) on ToolsServer to return "Each worker starts a subprocess server on the fixed port self.config.sidecar_port." when self.config.use_sidecar \(None otherwise\), so that the refusal is as narrow as the hazard$`

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()  # related "module-level app of resources_servers/tools/app.py: uvicorn"
