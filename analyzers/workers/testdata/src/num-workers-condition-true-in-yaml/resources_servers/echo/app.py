from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^EchoServer.multiple_workers_unsupported_reason\(\) returns a reason when self.config.metrics_source == "prometheus": "The window starts from a metrics snapshot in memory."$`
        if self.config.metrics_source == "prometheus":
            return "The window starts from a metrics snapshot in memory."
        return None


if __name__ == "__main__":
    EchoServer.run_webserver()
