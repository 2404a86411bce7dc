from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^EchoServer.multiple_workers_unsupported_reason\(\) returns a reason on every path: "Episodes are kept in memory by the env_id in the request body."$`
        return "Episodes are kept in memory by the env_id in the request body."


if __name__ == "__main__":
    EchoServer.run_webserver()
