from typing import ClassVar

import ray
from pydantic import BaseModel


class BaseServer(BaseModel):
    ray_enabled: ClassVar[bool] = False


class SimpleServer(BaseServer):
    @classmethod
    def run_webserver(cls):
        # The current contract: Ray only for a server that declares it.
        if cls.ray_enabled:
            ray.init()
