"""Process-level plumbing every Gym server shares."""

from os import getenv
from typing import Optional

from fastapi import FastAPI
from pydantic import BaseModel

from nemo_gym.config_types import BaseServerConfig

WORKER_FLAG = "IS_NEMO_GYM_FASTAPI_WORKER"
ENTRYPOINT_FLAG = "IS_NEMO_GYM_FASTAPI_ENTRYPOINT"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    wanted = getenv(ENTRYPOINT_FLAG) or ""
    return getenv(WORKER_FLAG) == "1" and wanted != "" and file.endswith(wanted)


def refuse_unsupported_num_workers(server: "BaseServer") -> None:
    """Fail at startup when the config asks for workers the server refuses."""
    workers = server.config.num_workers or 1
    if workers <= 1:
        return
    reason = server.multiple_workers_unsupported_reason()
    if reason:
        raise SystemExit(f"{type(server).__name__} refuses num_workers={workers}: {reason}")


class BaseServer(BaseModel):
    config: BaseServerConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        """Why this server cannot run under several uvicorn workers, or None."""
        return None


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        return FastAPI(title=type(self).__name__)

    @classmethod
    def run_webserver(cls) -> FastAPI:
        server = cls(config=BaseServerConfig(entrypoint=getenv(ENTRYPOINT_FLAG, "app.py")))
        refuse_unsupported_num_workers(server)
        return server.setup_webserver()
