from typing import Annotated, Optional, Union

from pydantic import Field, PositiveInt

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class JudgeConfig(BaseResourcesServerConfig):
    max_steps: int = 10
    retries: Optional[int] = None
    temperature: float | None = None
    batch: PositiveInt = 1
    window: Annotated[int, Field(ge=1)] = 4
    label: str = "judge"
    judge_timeout_seconds: Optional[str] = None
    seed: Union[int, str] = 0


class JudgeServer(SimpleResourcesServer):
    config: JudgeConfig


if __name__ == "__main__":
    JudgeServer.run_webserver()
