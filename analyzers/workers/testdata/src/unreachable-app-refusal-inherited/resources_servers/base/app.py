from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

class BaseEnvServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):  # related `BaseEnvServer.multiple_workers_unsupported_reason\(\) refuses`
        return "Environments are kept in memory."
