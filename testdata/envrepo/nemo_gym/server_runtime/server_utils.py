"""What every server process shares: the base classes and the entrypoint check."""

from os import getenv
from typing import Optional

from fastapi import FastAPI
from pydantic import BaseModel

from nemo_gym.config.config_types import BaseServerConfig


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    wanted = getenv("IS_NEMO_GYM_FASTAPI_ENTRYPOINT") or ""
    return getenv("IS_NEMO_GYM_FASTAPI_WORKER") == "1" and wanted != "" and file.endswith(wanted)


def refuse_unsupported_num_workers(server: "BaseServer") -> None:
    workers = server.config.num_workers or 1
    reason = server.multiple_workers_unsupported_reason()
    if workers > 1 and reason:
        raise SystemExit(f"{type(server).__name__} refuses num_workers={workers}: {reason}")


class BaseServer(BaseModel):
    config: BaseServerConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return None


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        return FastAPI(title=type(self).__name__)

    @classmethod
    def run_webserver(cls) -> FastAPI:
        server = cls(config=BaseServerConfig(entrypoint=getenv("IS_NEMO_GYM_FASTAPI_ENTRYPOINT", "app.py")))
        refuse_unsupported_num_workers(server)
        return server.setup_webserver()
