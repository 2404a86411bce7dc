from fastapi import Request
from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# A helper reads the cookie itself, out of the body parameter's reach: no fix.
class Envs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(body.resources_session_id, object())

    async def close_resources_session(self, request: Request, body: ResourcesCloseSessionRequest):
        self._drop(request)
        self._fences.fence(body.resources_session_id, body.episode_id)

    # want +2 "GL305 .*\\(through Envs._drop\\) finds the session through the session cookie only"
    def _drop(self, request):
        self.envs.pop(request.session.get(SESSION_ID_KEY), None)


if __name__ == "__main__":
    Envs.run_webserver()
