"""Process-level plumbing every Gym server shares."""

from os import getenv
from typing import ClassVar, Optional

from fastapi import FastAPI
from pydantic import BaseModel

WORKER_FLAG = "IS_NEMO_GYM_FASTAPI_WORKER"
ENTRYPOINT_FLAG = "IS_NEMO_GYM_FASTAPI_ENTRYPOINT"


def is_nemo_gym_fastapi_entrypoint(file: str) -> bool:
    wanted = getenv(ENTRYPOINT_FLAG) or ""
    return getenv(WORKER_FLAG) == "1" and wanted != "" and file.endswith(wanted)


class BaseServer(BaseModel):
    config: Optional[dict] = None
    ray_enabled: ClassVar[bool] = False

    def multiple_workers_unsupported_reason(self) -> str | None:
        return None

    @classmethod
    def run_webserver(cls) -> FastAPI:
        server = cls()
        workers = int(getenv("NEMO_GYM_NUM_WORKERS", "1"))
        reason = server.multiple_workers_unsupported_reason()
        if workers > 1 and reason is not None:
            raise SystemExit(f"{cls.__name__} refuses num_workers={workers}: {reason}")
        if cls.ray_enabled:
            import ray

            ray.init()
        return server.setup_webserver()


class AggregateMetricsMixin:
    def aggregate_metrics(self, rewards: list[float]) -> dict:
        mean = sum(rewards) / len(rewards) if rewards else 0.0
        return {"mean_reward": mean, "count": len(rewards)}


class SimpleServer(BaseServer):
    def setup_webserver(self) -> FastAPI:
        app = FastAPI(title=type(self).__name__)
        return app
