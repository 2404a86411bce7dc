from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^EchoServer.multiple_workers_unsupported_reason\(\) returns a reason when self.config.compute_comet: "Each worker builds its own Ray GPU actor pool for COMET."$`
        if not self.config.compute_comet:
            return None
        return "Each worker builds its own Ray GPU actor pool for COMET."


if __name__ == "__main__":
    EchoServer.run_webserver()
