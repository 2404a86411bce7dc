"""Shared base for servers that keep one environment object per episode."""

from abc import ABC, abstractmethod
from typing import Generic, TypeVar
from uuid import uuid4

from pydantic import Field

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer

TEnv = TypeVar("TEnv")
TData = TypeVar("TData")


class EnvResourcesServer(SimpleResourcesServer, Generic[TEnv, TData], ABC):
    env_id_to_env: dict[str, object] = Field(default_factory=dict)

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Environments stay in this process's memory, keyed by the env_id in the request body."

    @abstractmethod
    def make_env(self, index: int) -> TEnv: ...

    async def seed_session(self, body: dict) -> dict:
        env_id = str(uuid4())
        self.env_id_to_env[env_id] = self.make_env(int(body.get("index", 0)))
        return {"env_id": env_id}

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=0.0)
