from typing import Optional

from pydantic import field_validator

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class SheetGraderConfig(BaseResourcesServerConfig):
    timeout_s: float = 30.0

    @field_validator("num_workers")
    @classmethod
    def single_worker(cls, value: Optional[int]) -> Optional[int]:
        if value is not None and value > 1:
            raise ValueError("sheet_grader keeps open workbooks in memory; run it with one worker")
        return value

    @field_validator("timeout_s")
    @classmethod
    def positive_timeout(cls, value: float) -> float:
        if value <= 0:
            raise ValueError("timeout_s must be positive")
        return value


class SheetGraderServer(SimpleResourcesServer):
    config: SheetGraderConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        return "Open workbooks are kept in this process's memory."

    async def verify(self, request, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    SheetGraderServer.run_webserver()
