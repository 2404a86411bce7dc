"""GL301: plain exceptions for bad input in a seed; retryable ones are fine."""

import logging

from fastapi import HTTPException, Request, status

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

logger = logging.getLogger(__name__)


class BadInputServer(SimpleResourcesServer):
    tasks: list = []

    async def seed_session(self, request: Request, body):
        if not 0 <= body.task_idx < len(self.tasks):
            raise ValueError(f"task_idx={body.task_idx} out of range")
        assert body.difficulty in ("easy", "hard")
        if body.mode == "legacy":
            raise HTTPException(status_code=500, detail="legacy mode is not supported")
        if body.mode == "broken":
            raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, "broken mode")
        try:
            task = self.tasks[body.task_idx]
        except (KeyError, IndexError):
            logger.error("no task %s", body.task_idx)
            raise
        if task is None:
            raise RuntimeError("the task store is not loaded yet")
        if body.mode == "remote":
            raise HTTPException(status_code=503, detail="sandbox provider unavailable")
        if body.mode == "old":
            raise HTTPException(status_code=400, detail="old mode")
        self.last_task = task
        return None

    async def verify(self, body) -> BaseVerifyResponse:
        return BaseVerifyResponse(reward=1.0)


if __name__ == "__main__":
    BadInputServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BadInputServer.run_webserver()
