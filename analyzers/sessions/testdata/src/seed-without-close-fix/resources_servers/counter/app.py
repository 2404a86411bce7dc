from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSeedSessionRequest, SimpleResourcesServer


# Plain data by the session's id: the close pops it, fences the session
# and answers as the framework does; the fences are built once, in a new
# model_post_init, and the seed checks them first.
class Counter(SimpleResourcesServer):  # want "GL302 Counter keeps per-session state in seed_session"
    async def seed_session(self, request: Request, body: ResourcesSeedSessionRequest):
        sid = body.resources_session_id
        self.counts.setdefault(sid, 0)
        self.history.setdefault(sid, [])
        return None

    async def step(self, request: Request, body: dict):
        self.counts[request.session["session_id"]] += 1
        return {}


if __name__ == "__main__":
    Counter.run_webserver()
