from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionConflictError, ResourcesSessionFences, SimpleResourcesServer


class Runs(SimpleResourcesServer):
    """Look-alikes: a 409 for the conflict, a comparison with the config, a raise when the episodes agree."""

    def model_post_init(self, context):
        self.runs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.runs[body.resources_session_id] = {"episode": body.episode_id}

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        rec = self.runs.get(sid)
        if rec is not None and rec["episode"] != body.episode_id:
            raise ResourcesSessionConflictError("the session belongs to another episode")
        if body.episode_id != self.config.episode_prefix:
            raise ValueError("not one of ours")
        if rec is not None and rec["episode"] == body.episode_id and rec.get("broken"):
            raise RuntimeError("the run is broken")
        self.runs.pop(sid, None)
        self._fences.fence(sid, body.episode_id)


if __name__ == "__main__":
    Runs.run_webserver()
