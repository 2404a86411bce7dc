from typing import Optional

from pydantic import BaseModel, model_validator


class BaseRunServerConfig(BaseModel):
    entrypoint: str
    domain: Optional[str] = None


class ServerInstanceConfig(BaseModel):
    name: str
    config: BaseRunServerConfig

    @model_validator(mode="after")
    def validate_domain_for_resources_server(self):
        assert self.config.domain is not None, "A domain is required for resources servers."
        return self
