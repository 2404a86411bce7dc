import asyncio
import time
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from fastapi import HTTPException

FenceRecordT = TypeVar("FenceRecordT")

RESERVED_MCP_TOOL_NAMES = frozenset({"seed_session", "verify", "close_session"})


class ResourcesSeedRejectedError(HTTPException):
    def __init__(self, detail: str):
        super().__init__(status_code=422, detail=detail)


class ResourcesSessionConflictError(HTTPException):
    def __init__(self, detail: str):
        super().__init__(status_code=409, detail=detail)


class ResourcesSessionLostError(HTTPException):
    def __init__(self, detail: str):
        super().__init__(status_code=404, detail=detail)


class ResourcesSessionFences(Generic[FenceRecordT]):
    def __init__(self, window_seconds: float = 600.0):
        self._window = window_seconds
        self._closed: dict[str, tuple[float, FenceRecordT]] = {}

    def fence(self, session_id: str, record: FenceRecordT) -> None:
        self._closed[session_id] = (time.monotonic(), record)

    def raise_if_fenced(self, session_id: str) -> None:
        entry = self._closed.get(session_id)
        if entry is not None and time.monotonic() - entry[0] < self._window:
            raise ResourcesSessionConflictError(f"session {session_id} was closed")


class ResourcesSessionLocks:
    def __init__(self):
        self._locks: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def locked(self, session_id: str):
        lock = self._locks.setdefault(session_id, asyncio.Lock())
        async with lock:
            yield


def lost_session_verification(reason: str, failure_kind: str = "session_lost") -> dict:
    return {"reward": 0.0, "mask_sample": True, "failure_kind": failure_kind, "failure_reason": reason}


def mcp_session_token_serializer(secret):
    return None
