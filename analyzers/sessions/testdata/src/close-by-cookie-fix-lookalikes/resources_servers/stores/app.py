from fastapi import Request
from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# The close also writes the cookie's id: replacing that subscript would
# assign to the body. No fix.
class Envs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(body.resources_session_id, object())

    async def close_resources_session(self, request: Request, body: ResourcesCloseSessionRequest):
        sid = request.session[SESSION_ID_KEY]  # want "GL305 Envs.close_resources_session finds the session through the session cookie only"
        self.envs.pop(sid, None)
        self._fences.fence(sid, body.episode_id)
        request.session[SESSION_ID_KEY] = ""


if __name__ == "__main__":
    Envs.run_webserver()
