from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class BadTask(ValueError):
    pass


class Rejected(HTTPException, ValueError):
    pass


class Nope(RuntimeError):
    pass


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        if body.a:
            raise BadTask("a")  # want `GL301 .*raises BadTask \(a ValueError\)`
        if body.b:
            raise Rejected(422, "b")
        raise Nope()

if __name__ == "__main__":
    S.run_webserver()
