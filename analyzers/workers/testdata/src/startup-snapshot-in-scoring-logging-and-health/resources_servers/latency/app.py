import logging
import time

import psutil

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


LOG = logging.getLogger(__name__)


class LatencyServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.started = time.time()
        self.boot_io = psutil.disk_io_counters()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.get("/health")(self.health)
        return app

    async def health(self):
        return {"uptime": time.time() - self.started}

    async def verify(self, body):
        LOG.info("scoring, up since %s (io %s)", self.started, self.boot_io)
        if self.started is None:
            return {"reward": 0.0}
        return {"reward": 1.0, "started": self.started}


if __name__ == "__main__":
    LatencyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LatencyServer.run_webserver()
