from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        assert body.x  # want `GL301 .*raises AssertionError \(an assert statement\)`
        if body.a:
            raise KeyError  # want "GL301 .*raises KeyError"
        if body.b:
            raise TypeError("t")  # want "GL301 .*raises TypeError"
        raise LookupError("l")  # want "GL301 .*raises LookupError"

if __name__ == "__main__":
    S.run_webserver()
