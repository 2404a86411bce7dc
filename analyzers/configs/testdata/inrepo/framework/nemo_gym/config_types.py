from enum import Enum
from typing import Optional

from pydantic import BaseModel, model_validator


class Domain(str, Enum):
    MATH = "math"
    OTHER = "other"


class BaseServerConfig(BaseModel):
    host: str
    port: int
    num_workers: Optional[int] = None


class BaseRunServerConfig(BaseServerConfig):
    entrypoint: str
    domain: Optional[Domain] = None


class BaseRunServerInstanceConfig(BaseRunServerConfig):
    name: str


class ServerInstanceConfig(BaseModel):
    name: str

    @model_validator(mode="after")
    def validate_domain_for_resources_server(self):
        return self
