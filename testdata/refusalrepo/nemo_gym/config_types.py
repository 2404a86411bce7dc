"""Config models every server config derives from."""

from typing import Optional

from pydantic import BaseModel, ConfigDict


class BaseServerConfig(BaseModel):
    model_config = ConfigDict(extra="allow")

    entrypoint: str
    num_workers: Optional[int] = None


class BaseResourcesServerConfig(BaseServerConfig):
    domain: str = "other"


class ResourcesServerRef(BaseModel):
    type: str
    name: str
