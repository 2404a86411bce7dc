"""Config models and the references servers make to each other."""

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict


class BaseServerConfig(BaseModel):
    model_config = ConfigDict(extra="allow")

    entrypoint: str
    num_workers: Optional[int] = None


class ResourcesServerRef(BaseModel):
    type: Literal["resources_servers"]
    name: str


class AgentServerRef(BaseModel):
    type: Literal["responses_api_agents"]
    name: str


class ModelServerRef(BaseModel):
    type: Literal["responses_api_models"]
    name: str
