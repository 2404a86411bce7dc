from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RefuseMixin:
    def multiple_workers_unsupported_reason(self):  # related "RefuseMixin.multiple_workers_unsupported_reason is shadowed"
        return "state in memory"


class EchoServer(SimpleResourcesServer, RefuseMixin):  # want `GL101 .*override; RefuseMixin's override is shadowed, as SimpleResourcesServer precedes it in EchoServer's MRO help: .* to return why; to use RefuseMixin's override, list it before SimpleResourcesServer in EchoServer's bases$`
    pass
