from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# No parameter is annotated as the close's request (FastAPI would not even
# give this one the body): no fix.
class Envs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(body.resources_session_id, object())

    async def close_resources_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]  # want "GL305 Envs.close_resources_session finds the session through the session cookie only"
        self.envs.pop(sid, None)
        self._fences.fence(sid, None)


if __name__ == "__main__":
    Envs.run_webserver()
