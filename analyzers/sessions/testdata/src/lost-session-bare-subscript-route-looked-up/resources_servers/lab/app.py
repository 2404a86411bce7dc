from fastapi import Request
from nemo_gym.base_resources_server import BaseSeedSessionRequest, ResourcesSessionFences, ResourcesSessionLostError, SimpleResourcesServer


# The route looks the record up and answers a missing one before it calls the
# helper that reads it by subscript: the helper's read runs only for a
# present record, so no GL309 (the shape GL309's fix leaves behind).
class Lab(SimpleResourcesServer):
    _fences = ResourcesSessionFences()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/mix")(self.mix)
        app.post("/pour")(self.pour)
        return app

    async def seed_session(self, body: BaseSeedSessionRequest):
        self.benches.setdefault(body.env_id, {"flasks": []})
        return None

    async def mix(self, body):
        if self.benches.get(body.env_id) is None:
            raise ResourcesSessionLostError(f"no bench {body.env_id}")
        return self._mix(body)

    def _mix(self, body):
        bench = self.benches[body.env_id]
        bench["flasks"].append(body.flask)
        return {}

    # No lookup before the call: the helper's KeyError leaves the route.
    async def pour(self, body):
        return self._pour(body)

    def _pour(self, body):
        bench = self.benches[body.env_id]  # want "GL309 Lab._pour \\(reached from the tool route pour\\) reads the session's record"
        return {"n": len(bench["flasks"])}

    async def close_resources_session(self, body):
        self.benches.pop(body.env_id, None)
        self._fences.fence(body.resources_session_id, None)


if __name__ == "__main__":
    Lab.run_webserver()
