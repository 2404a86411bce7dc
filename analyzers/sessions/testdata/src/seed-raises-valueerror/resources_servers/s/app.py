from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        if body.x < 0:
            raise ValueError(f"bad {body.x}")  # want `GL301 S.seed_session raises ValueError for input no retry can fix.*HTTP 500.*ResourcesSeedRejectedError\(detail\) \(422\).*ResourcesSessionConflictError\(detail\) \(409\)`
        return None

if __name__ == "__main__":
    S.run_webserver()
