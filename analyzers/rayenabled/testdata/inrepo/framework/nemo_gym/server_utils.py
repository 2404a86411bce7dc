from typing import ClassVar

import ray
from pydantic import BaseModel


class BaseServer(BaseModel):
    ray_enabled: ClassVar[bool] = False


class SimpleServer(BaseServer):
    @classmethod
    def run_webserver(cls):
        ray.init()
