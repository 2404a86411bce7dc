from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import socket

PROBE_PORT = 9100


class ProbeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("0.0.0.0", PROBE_PORT))  # want `^GL108 server class ProbeServer starts a socket server on the fixed port PROBE_PORT \(9100\) at start-up \(in ProbeServer.model_post_init\), so every worker binds the same port help: .*override multiple_workers_unsupported_reason\(\) on ProbeServer to return "Each worker starts a socket server on the fixed port PROBE_PORT \(9100\)."$`
        s.listen()
        self._probe = s

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    ProbeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ProbeServer.run_webserver()  # related "module-level app of resources_servers/probe/app.py: uvicorn"
