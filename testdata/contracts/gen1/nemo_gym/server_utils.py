from typing import Optional

import ray
from fastapi import FastAPI
from pydantic import BaseModel


def initialize_ray() -> None:
    if not ray.is_initialized():
        ray.init()


class BaseServer(BaseModel):
    config: Optional[dict] = None


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        return FastAPI(title=type(self).__name__)

    @classmethod
    def run_webserver(cls) -> FastAPI:
        initialize_ray()
        return cls().setup_webserver()
