from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^EchoServer.multiple_workers_unsupported_reason\(\) refuses several workers unconditionally, with "Episodes are kept in memory by the env_id in the request body."$`
        return "Episodes are kept in memory by the env_id in the request body."


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401  # want `^GL106 module-level app is never served, as EchoServer.multiple_workers_unsupported_reason\(\) refuses several workers on every path help: remove the app if EchoServer is not safe with several workers; if it is, drop the refusal or make it depend on the config$`
