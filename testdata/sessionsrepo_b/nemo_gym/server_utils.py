"""What every server process shares: the session cookie key and the start-up helpers."""

import os

from pydantic import BaseModel

SESSION_ID_KEY = "session_id"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    return os.environ.get("NEMO_GYM_ENTRYPOINT", "") == file


class BaseServer(BaseModel):
    def multiple_workers_unsupported_reason(self):
        return None

    @classmethod
    def run_webserver(cls):
        return cls().setup_webserver()


class SimpleServer(BaseServer):
    def setup_webserver(self):
        from fastapi import FastAPI

        return FastAPI()
