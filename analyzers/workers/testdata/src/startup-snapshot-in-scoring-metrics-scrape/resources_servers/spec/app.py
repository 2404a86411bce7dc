import requests

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def _window(before, after):
    return after["accepted"] - before.get("accepted", 0)


class SpecServer(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.metrics_source == "prometheus":
            self.start_metrics = self._scrape()  # related "self.start_metrics is measured here"

    def _scrape(self):
        text = requests.get(self.config.metrics_url, timeout=5).text
        return parse(text)

    async def verify(self, body):
        now = self._scrape()
        return {"reward": 1.0, "accepted": _window(self.start_metrics, now)}  # want `^GL113 SpecServer.verify passes self.start_metrics, measured once per worker in SpecServer.model_post_init by self._scrape\(\), to _window, which subtracts it: each worker measures from its own start help: .* when self.config.metrics_source == "prometheus" \(None otherwise\), so that the refusal is as narrow as the hazard$`


if __name__ == "__main__":
    SpecServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SpecServer.run_webserver()  # related "module-level app of resources_servers/spec/app.py"
