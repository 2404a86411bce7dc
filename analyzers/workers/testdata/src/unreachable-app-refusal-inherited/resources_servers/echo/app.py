from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

from resources_servers.base.app import BaseEnvServer


class EchoServer(BaseEnvServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401  # want `GL106 .*EchoServer's multiple_workers_unsupported_reason\(\) \(inherited from BaseEnvServer in resources_servers/base/app.py\) refuses several workers on every path`
