import requests

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint, refuse_unsupported_num_workers


class SpecServer(SimpleResourcesServer):
    def model_post_init(self, context):
        refuse_unsupported_num_workers(self)
        if self.config.metrics_source == "prometheus":
            self.start_metrics = self._scrape()

    def _scrape(self):
        return requests.get(self.config.metrics_url).json()

    async def verify(self, body):
        now = self._scrape()
        return {"accepted": now["accepted"] - self.start_metrics["accepted"]}

    def multiple_workers_unsupported_reason(self):
        if self.config.metrics_source == "prometheus":
            return "The window starts from a metrics snapshot in memory."
        return None


if __name__ == "__main__":
    SpecServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SpecServer.run_webserver()
