from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Envs(SimpleResourcesServer):
    """The close compares the cookie with the body's id and fences the body's id, but releases by the cookie."""

    def model_post_init(self, context):
        self.envs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[request.session[SESSION_ID_KEY]] = object()  # related "per-session state self.envs is written here"

    async def close_resources_session(self, request: Request, body):
        cookie = request.session.get(SESSION_ID_KEY)  # want `GL305 Envs.close_resources_session finds the session through the session cookie only \(request.session.get\(SESSION_ID_KEY\)\) and releases its state by it \(self.envs.pop\(cookie, None\), line 21\) help: release the state by body.resources_session_id`
        if cookie is not None and cookie != body.resources_session_id:
            raise HTTPException(status_code=409, detail="another session")
        self.envs.pop(cookie, None)
        self._fences.fence(body.resources_session_id, body.episode_id)


if __name__ == "__main__":
    Envs.run_webserver()
