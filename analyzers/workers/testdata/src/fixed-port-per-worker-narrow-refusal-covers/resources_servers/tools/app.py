from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import subprocess


class ToolsServer(SimpleResourcesServer):
    # A refusal under a condition every config below meets: nothing is
    # reported, though the sidecar starts in every configuration.
    def multiple_workers_unsupported_reason(self):
        if self.config.legacy_scoring:
            return "The legacy scorer keeps its tables in memory."
        return None

    def setup_webserver(self):
        app = super().setup_webserver()
        subprocess.Popen(["sidecar", "--port", str(self.config.sidecar_port)])
        return app

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()
