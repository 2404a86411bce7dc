import typing

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    REASON: typing.ClassVar[str] = "Episodes are kept in memory."

    def multiple_workers_unsupported_reason(self) -> str | None:  # related `refuses several workers unconditionally, with "Episodes are kept in memory."$`
        return self.REASON


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # want `^GL106 module-level app is never served, as EchoServer.multiple_workers_unsupported_reason\(\) refuses several workers on every path help: `
