"""The resources-server session contract, reduced to its names and shapes."""

import asyncio
import time
from collections import OrderedDict
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from fastapi import HTTPException
from pydantic import BaseModel

from nemo_gym.server_utils import SESSION_ID_KEY, BaseServer, SimpleServer

FenceRecordT = TypeVar("FenceRecordT")


class ResourcesSeedRejectedError(HTTPException, ValueError):
    def __init__(self, detail: str):
        super().__init__(status_code=422, detail=detail)


class ResourcesSessionConflictError(HTTPException, ValueError):
    def __init__(self, detail: str):
        super().__init__(status_code=409, detail=detail)


class ResourcesSessionLostError(HTTPException):
    def __init__(self, message: str, failure_kind: str = "session_lost"):
        super().__init__(status_code=404, detail={"message": message, "failure_kind": failure_kind})


class ResourcesSessionFences(Generic[FenceRecordT]):
    def __init__(self, close_retry_window_seconds: float):
        self._window = close_retry_window_seconds
        self._fences = OrderedDict()

    def __contains__(self, resources_session_id: object) -> bool:
        return resources_session_id in self._fences

    def fence(self, resources_session_id: str, record: FenceRecordT) -> None:
        self._fences.setdefault(resources_session_id, (time.monotonic() + self._window, record))

    def raise_if_fenced(self, resources_session_id: str) -> None:
        if resources_session_id in self._fences:
            raise ResourcesSessionConflictError(f"session {resources_session_id} is closed")


class ResourcesSessionLocks:
    def __init__(self):
        self._locks = {}

    @asynccontextmanager
    async def locked(self, resources_session_id: str):
        lock = self._locks.setdefault(resources_session_id, asyncio.Lock())
        async with lock:
            yield


def lost_session_verification(reason: str, failure_kind: str = "session_lost") -> dict:
    return {"reward": 0.0, "mask_sample": True, "failure_kind": failure_kind, "failure_reason": reason}


class BaseSeedSessionRequest(BaseModel):
    pass


class BaseSeedSessionResponse(BaseModel):
    pass


class ResourcesSeedSessionRequest(BaseModel):
    resources_session_id: str
    episode_id: str
    task_id: str
    task_data: dict


class ResourcesCloseSessionRequest(BaseModel):
    resources_session_id: str
    episode_id: str


class ResourcesCloseSessionResponse(BaseModel):
    resources_session_id: str


class BaseVerifyRequest(BaseModel):
    pass


class BaseVerifyResponse(BaseModel):
    reward: float


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    async def seed_session(self, body: BaseSeedSessionRequest) -> BaseSeedSessionResponse:
        return BaseSeedSessionResponse()

    async def close_resources_session(self, body: ResourcesCloseSessionRequest) -> ResourcesCloseSessionResponse:
        # The default keeps no state, so it has nothing to release or fence.
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        raise NotImplementedError


__all__ = ["SESSION_ID_KEY"]
