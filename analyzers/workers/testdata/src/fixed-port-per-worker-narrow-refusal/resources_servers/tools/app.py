from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import subprocess


class ToolsServer(SimpleResourcesServer):
    # The refusal covers the legacy scorer only, but the sidecar starts in
    # every configuration: a config without legacy_scoring runs several
    # workers, each binding sidecar_port.
    def multiple_workers_unsupported_reason(self):
        if self.config.legacy_scoring:
            return "The legacy scorer keeps its tables in memory."
        return None

    def setup_webserver(self):
        app = super().setup_webserver()
        subprocess.Popen(["sidecar", "--port", str(self.config.sidecar_port)])  # want `^GL108 server class ToolsServer starts a subprocess server on the fixed port self.config.sidecar_port at start-up \(in ToolsServer.setup_webserver\), so every worker binds the same port help: .*; the refusal covers only the configs where self.config.legacy_scoring$`
        return app

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()  # related "module-level app of resources_servers/tools/app.py"
