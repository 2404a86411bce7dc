from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return f"Each worker starts a sidecar on port {self.config.port}."


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401  # want `GL106 .*refuses several workers on every path help: `
