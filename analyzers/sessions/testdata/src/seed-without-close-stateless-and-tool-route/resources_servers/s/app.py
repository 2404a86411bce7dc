from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        self.config_seen = True
        return None

    async def step(self, request, body):
        self.envs[request.session[SESSION_ID_KEY]] = 1


if __name__ == "__main__":
    S.run_webserver()
