from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import subprocess


class ToolsServer(SimpleResourcesServer):
    # The remedy: refuse several workers under the condition that starts
    # the sidecar; the app serves the other configurations.
    def multiple_workers_unsupported_reason(self):
        if self.config.use_sidecar:
            return "Each worker starts a sidecar on the fixed sidecar_port."
        return None

    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.use_sidecar:
            subprocess.Popen(["sidecar", "--port", str(self.config.sidecar_port)])
        return app

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ToolsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolsServer.run_webserver()
