from fastapi import Request

from nemo_gym.base_resources_server import SimpleResourcesServer


class CounterServer(SimpleResourcesServer):
    """Keeps per-session state and never closes it: GL302 where the framework serves the close."""

    def model_post_init(self, context):
        self.counts = {}

    def multiple_workers_unsupported_reason(self):
        return "the counts live in this process"

    async def seed_session(self, request: Request, body):
        self.counts[body.resources_session_id] = 0
        return {}

    async def verify(self, request: Request, body):
        count = self.counts[body.resources_session_id]
        return {"reward": float(count)}


if __name__ == "__main__":
    CounterServer.run_webserver()
