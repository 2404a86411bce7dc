from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RefusedServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "The sessions.json state file is owned by one process."

    async def verify(self, body):
        with open(self.config.state_path, "w") as f:
            f.write("{}")
        return body


if __name__ == "__main__":
    RefusedServer.run_webserver()
