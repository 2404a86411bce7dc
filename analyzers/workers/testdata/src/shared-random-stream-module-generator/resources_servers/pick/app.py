from random import Random as R

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


RNG = R(7)  # related "RNG is seeded here"


class PickServer(SimpleResourcesServer):
    async def verify(self, body):
        return {"reward": RNG.uniform(0, 1)}  # want `^GL109 PickServer.verify draws from RNG, seeded once per worker at module scope of resources_servers/pick/app.py by random.Random\(\.\.\.\)`


if __name__ == "__main__":
    PickServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = PickServer.run_webserver()  # related "module-level app of resources_servers/pick/app.py"
