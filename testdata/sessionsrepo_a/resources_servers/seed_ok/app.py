"""Look-alikes of GL301 that must stay silent."""

from fastapi import HTTPException, Request

import nemo_gym.base_resources_server as brs
from nemo_gym.base_resources_server import ResourcesSessionConflictError, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


async def seed_session(request: Request, body):
    # A helper named like the override, outside any server class.
    raise ValueError("not an override")


class SeedHelper:
    async def seed_session(self, request: Request, body):
        # Not a server class.
        raise ValueError("not a server")


class CleanSeedServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        if body.task_idx < 0:
            raise brs.ResourcesSeedRejectedError("task_idx must not be negative")
        if body.taken:
            raise ResourcesSessionConflictError("the session is bound to another episode")
        if body.flaky:
            raise ConnectionError("the sandbox provider dropped the connection")
        if body.slow:
            raise TimeoutError
        if body.disk:
            raise OSError("disk full")
        if body.bad_request:
            raise HTTPException(status_code=400, detail="bad request")
        try:
            await self.start_sandbox(body)
        except Exception:
            await self.stop_sandbox(body)
            raise
        try:
            raise ValueError("caught right away")
        except ValueError:
            return None
        return None

    async def verify(self, body) -> brs.BaseVerifyResponse:
        return brs.BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    CleanSeedServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CleanSeedServer.run_webserver()
