from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class CloseMixin:
    async def close_resources_session(self, body):  # related "close_resources_session on CloseMixin is shadowed by"
        pass


class S(SimpleResourcesServer, CloseMixin):  # want "GL302 S keeps per-session state in seed_session \\(.*\\) but has no close_resources_session override; CloseMixin.close_resources_session is shadowed by SimpleResourcesServer's default help: list CloseMixin before SimpleResourcesServer in the bases of S$"
    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[session_id] = object()  # related "per-session state self.envs is written here, in"
        return None


if __name__ == "__main__":
    S.run_webserver()
