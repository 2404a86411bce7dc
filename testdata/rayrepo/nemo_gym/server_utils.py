"""Process-level plumbing every Gym server shares.

The framework starts or joins Ray for every process it supervises, so it imports
Ray itself; that says nothing about whether a server needs it.
"""

from os import getenv
from typing import ClassVar

import ray
from fastapi import FastAPI
from pydantic import BaseModel

ENTRYPOINT_FLAG = "IS_NEMO_GYM_FASTAPI_ENTRYPOINT"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    wanted = getenv(ENTRYPOINT_FLAG) or ""
    return wanted != "" and file.endswith(wanted)


def initialize_ray() -> None:
    address = getenv("RAY_HEAD_NODE_ADDRESS")
    ray.init(address=address or None, ignore_reinit_error=True)


class BaseServer(BaseModel):
    # The supervisor reads `ray_enabled = True` from each server's entrypoint
    # source and starts Ray only for the servers that declare it.
    ray_enabled: ClassVar[bool] = False

    def multiple_workers_unsupported_reason(self) -> str | None:
        return None

    @classmethod
    def run_webserver(cls) -> FastAPI:
        if cls.ray_enabled:
            initialize_ray()
        return cls().setup_webserver()


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        return FastAPI(title=type(self).__name__)
