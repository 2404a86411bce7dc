"""The resources-server session contract: its errors, fences, locks and the lost-session answer."""

import asyncio
from contextlib import asynccontextmanager

from fastapi import HTTPException
from pydantic import BaseModel

from nemo_gym.server_utils import SESSION_ID_KEY, BaseServer, SimpleServer

SESSION_LOST = "session_lost"


class ResourcesSeedRejectedError(HTTPException, ValueError):
    def __init__(self, detail: str):
        super().__init__(status_code=422, detail=detail)


class ResourcesSessionConflictError(HTTPException, ValueError):
    def __init__(self, detail: str):
        super().__init__(status_code=409, detail=detail)


class ResourcesSessionLostError(HTTPException):
    def __init__(self, message: str, failure_kind: str = SESSION_LOST):
        super().__init__(status_code=404, detail={"message": message, "failure_kind": failure_kind})


class ResourcesSessionFences:
    def __init__(self, close_retry_window_seconds: float):
        self.window = close_retry_window_seconds
        self.records = {}

    def fence(self, resources_session_id: str, record) -> None:
        self.records.setdefault(resources_session_id, record)

    def raise_if_fenced(self, resources_session_id: str) -> None:
        if resources_session_id in self.records:
            raise ResourcesSessionConflictError("the session is closed")


class ResourcesSessionLocks:
    def __init__(self):
        self.locks = {}

    @asynccontextmanager
    async def locked(self, resources_session_id: str):
        lock = self.locks.setdefault(resources_session_id, asyncio.Lock())
        async with lock:
            yield


def lost_session_verification(reason: str, failure_kind: str = SESSION_LOST) -> dict:
    return {"reward": 0.0, "mask_sample": True, "failure_kind": failure_kind, "failure_reason": reason}


class BaseVerifyRequest(BaseModel):
    model_config = {"extra": "allow"}


class BaseVerifyResponse(BaseVerifyRequest):
    reward: float


class ResourcesCloseSessionRequest(BaseModel):
    resources_session_id: str
    episode_id: str


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        app.post("/close_session")(self.close_resources_session)
        return app

    async def seed_session(self, body):
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):
        return None

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        raise NotImplementedError


__all__ = ["SESSION_ID_KEY", "lost_session_verification", "ResourcesSessionLostError"]
