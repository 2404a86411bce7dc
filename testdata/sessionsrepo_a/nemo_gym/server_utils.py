"""Process-level plumbing every Gym server shares."""

from os import getenv

from pydantic import BaseModel

SESSION_ID_KEY = "session_id"
ENTRYPOINT_FLAG = "IS_NEMO_GYM_FASTAPI_ENTRYPOINT"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    wanted = getenv(ENTRYPOINT_FLAG) or ""
    return wanted != "" and file.endswith(wanted)


class BaseServer(BaseModel):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return None

    @classmethod
    def run_webserver(cls):
        return cls().setup_webserver()


class SimpleServer(BaseServer):
    def setup_webserver(self):
        return None
