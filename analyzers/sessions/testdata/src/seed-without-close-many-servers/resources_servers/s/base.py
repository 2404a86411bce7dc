from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# Four servers share the seed: the message names two and counts the rest.
class Base(SimpleResourcesServer):  # want `^GL302 Alpha, Bravo and 2 more \(seed_session of Base\) keep per-session state in seed_session \(self.envs\[sid\]\) but have no close_resources_session override help: override close_resources_session: `
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[sid] = object()
        return None
