from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, SimpleResourcesServer


class Tasks(SimpleResourcesServer):
    """Look-alikes: the helper's raise is turned into a 422 by the seed, or is retryable."""

    def _resolve_task(self, body):
        if body.task_idx < 0:
            raise ValueError(f"task_idx={body.task_idx}")
        return body.task_idx

    def _connect(self):
        raise RuntimeError("sandbox provider unavailable")

    async def seed_session(self, request: Request, body):
        try:
            idx = self._resolve_task(body)
        except ValueError as e:
            raise ResourcesSeedRejectedError(str(e))
        self._connect()
        return None


if __name__ == "__main__":
    Tasks.run_webserver()
