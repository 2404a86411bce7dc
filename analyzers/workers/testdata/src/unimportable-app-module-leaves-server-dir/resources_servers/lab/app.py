from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LabServer(SimpleResourcesServer):
    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    LabServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LabServer.run_webserver()
