from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import ray


class EngineServer(SimpleResourcesServer):
    def setup_webserver(self):
        self._launch()
        return super().setup_webserver()

    def _launch(self):
        if self.config.base_url:
            return
        self._pg = ray.util.placement_group(bundles=[{"GPU": 1}] * self.config.tp)  # want `^GL110 server class EngineServer builds a Ray placement group of GPU bundles \("GPU": 1 per bundle\) at start-up \(in EngineServer._launch\), so every worker builds its own help: reserve the GPUs once for all workers .* when not self.config.base_url \(None otherwise\)`

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    EngineServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EngineServer.run_webserver()  # related "module-level app of resources_servers/engine/app.py: uvicorn"
