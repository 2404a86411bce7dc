from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# The close compares the cookie with the body's id: only the release's key
# changes, the comparison stays. The seed writes under the cookie's id, so
# the fix is unsafe (without session routing that id is random).
class Envs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs.setdefault(request.session[SESSION_ID_KEY], object())

    async def close_resources_session(self, request: Request, body: ResourcesCloseSessionRequest):
        cookie = request.session.get(SESSION_ID_KEY)  # want "GL305 Envs.close_resources_session finds the session through the session cookie only"
        if cookie is not None and cookie != body.resources_session_id:
            raise HTTPException(status_code=409, detail="another session")
        self.envs.pop(cookie, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    Envs.run_webserver()
