from fastapi import Request
from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class CloseBody(ResourcesCloseSessionRequest):
    reason: str = ""


# The body parameter has a name of its own and a subclass of the close
# request: the fix uses both as written.
class Envs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(body.resources_session_id, object())

    async def close_resources_session(self, request: Request, close: CloseBody):
        self.envs.pop(request.session[SESSION_ID_KEY], None)  # want "GL305 Envs.close_resources_session finds the session through the session cookie only"
        self._fences.fence(request.session[SESSION_ID_KEY], close.episode_id)


if __name__ == "__main__":
    Envs.run_webserver()
