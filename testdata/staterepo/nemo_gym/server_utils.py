"""Server base classes and helpers shared by every server in the fixture."""

import os
from typing import Optional
from uuid import uuid4

from pydantic import BaseModel

SESSION_ID_KEY = "session_id"


class BaseServerConfig(BaseModel):
    host: str = "127.0.0.1"
    port: int = 8000
    num_workers: Optional[int] = None


class BaseServer(BaseModel):
    config: BaseServerConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        """Why this server cannot run with several workers, or None when it can."""
        return None

    def model_post_init(self, context) -> None:
        return None


def refuse_unsupported_num_workers(server: BaseServer) -> None:
    """Raise when the config asks for several workers and the server says it cannot have them."""
    workers = server.config.num_workers or 1
    reason = server.multiple_workers_unsupported_reason()
    if workers > 1 and reason is not None:
        raise ValueError(f"{type(server).__name__} cannot run with num_workers={workers}: {reason}")


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    return os.environ.get("IS_NEMO_GYM_FASTAPI_ENTRYPOINT", "") == file


class SimpleServer(BaseServer):
    def setup_session_middleware(self, app) -> None:
        @app.middleware("http")
        async def add_session_id(request, call_next):
            request.session[SESSION_ID_KEY] = request.session.get(SESSION_ID_KEY, str(uuid4()))
            return await call_next(request)

    def setup_webserver(self):
        from fastapi import FastAPI

        app = FastAPI()
        self.setup_session_middleware(app)
        return app

    @classmethod
    def run_webserver(cls):
        server = cls.model_validate({})
        refuse_unsupported_num_workers(server)
        return server.setup_webserver()
