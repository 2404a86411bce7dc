import os
from typing import ClassVar, Optional

import ray
from fastapi import FastAPI
from pydantic import BaseModel


def initialize_ray() -> None:
    if not ray.is_initialized():
        ray.init()


class BaseServer(BaseModel):
    config: Optional[dict] = None
    ray_enabled: ClassVar[bool] = False

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return None


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        return FastAPI(title=type(self).__name__)

    @classmethod
    def run_webserver(cls) -> FastAPI:
        server = cls()
        workers = int(os.environ.get("NEMO_GYM_NUM_WORKERS", "1"))
        reason = server.multiple_workers_unsupported_reason()
        if workers > 1 and reason is not None:
            raise SystemExit(f"{cls.__name__} refuses {workers} workers: {reason}")
        if cls.ray_enabled:
            initialize_ray()
        return server.setup_webserver()
