"""Bases kept for servers written against the first server API.

They predate ray_enabled and are plain pydantic models: nothing here declares it.
"""

from fastapi import FastAPI
from pydantic import BaseModel


class SimpleResourcesServer(BaseModel):
    @classmethod
    def run_webserver(cls) -> FastAPI:
        app = FastAPI(title=cls.__name__)
        app.post("/verify")(cls().verify)
        return app
