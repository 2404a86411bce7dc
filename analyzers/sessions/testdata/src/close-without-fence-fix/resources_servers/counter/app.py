from fastapi import Request
from nemo_gym.base_resources_server import ResourcesCloseSessionRequest, ResourcesSeedSessionRequest, SimpleResourcesServer


# No fences at all: the fix builds them in a new model_post_init, starts
# the seed with the check and fences after the release.
class Counter(SimpleResourcesServer):
    async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest):
        """Start counting."""
        self.counts.setdefault(body.resources_session_id, 0)
        return None

    async def close_resources_session(self, body: ResourcesCloseSessionRequest):  # want "GL303 Counter.close_resources_session releases the session's state"
        self.counts.pop(body.resources_session_id, None)
        self.log.pop(body.resources_session_id, None)
        return None


if __name__ == "__main__":
    Counter.run_webserver()
