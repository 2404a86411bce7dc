from fastapi import Request

from nemo_gym.base_resources_server import SimpleResourcesServer


class SeedValServer(SimpleResourcesServer):
    """Refuses bad task data with a plain exception: GL301 where the framework has the 422 error."""

    def multiple_workers_unsupported_reason(self):
        return "kept simple"

    async def seed_session(self, request: Request, body):
        if not body.task:
            raise ValueError("task is required")
        return {}

    async def verify(self, request: Request, body):
        return {"reward": 0.0}


if __name__ == "__main__":
    SeedValServer.run_webserver()
