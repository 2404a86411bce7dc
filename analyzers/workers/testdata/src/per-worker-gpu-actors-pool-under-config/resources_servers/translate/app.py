from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from ray.util import ActorPool

from .comet import CometActor


class TranslateServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.compute_comet:
            self._build_pool()  # related "TranslateServer.setup_webserver runs it at start-up in every worker"
        return app

    def _build_pool(self):
        actors = [CometActor.options(num_gpus=1).remote(i) for i in range(self.config.comet_shards)]
        self._pool = ActorPool(actors)  # want `^GL110 server class TranslateServer builds a Ray actor pool of GPU actors \(num_gpus=1\) at start-up \(in TranslateServer._build_pool\), so every worker builds its own help: .* when self.config.compute_comet \(None otherwise\), so that the refusal is as narrow as the hazard$`

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    TranslateServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = TranslateServer.run_webserver()  # related "module-level app of resources_servers/translate/app.py: uvicorn"
