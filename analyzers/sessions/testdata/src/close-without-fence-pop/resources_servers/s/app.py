from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[session_id] = object()  # related "per-session state self.envs is written here, in"
        return None

    async def close_resources_session(self, body):  # want `GL303 S.close_resources_session releases the session's state \(self.envs.pop\(...\)\) but never fences the session help: after releasing, call fence\(body.resources_session_id, record\) on a ResourcesSessionFences built with the config's session_close_retry_window_seconds, and start seed_session with raise_if_fenced$`
        self.envs.pop(body.resources_session_id, None)  # related "the state is released here"
        return None


if __name__ == "__main__":
    S.run_webserver()
