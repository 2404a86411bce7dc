"""Per-session counters keyed by what session routing follows: the cookie's id and resources_session_id."""

from typing import Dict

from fastapi import Request
from pydantic import Field

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class CounterSessionServer(SimpleResourcesServer):
    session_id_to_count: Dict[str, int] = Field(default_factory=dict)
    episodes: Dict[str, dict] = Field(default_factory=dict)

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/increment")(self.increment)
        return app

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self.session_id_to_count[session_id] = 0
        self.episodes[body.resources_session_id] = {"task": body.task_id}
        return {}

    async def increment(self, request: Request, body):
        self.session_id_to_count[request.session[SESSION_ID_KEY]] += body.amount
        return {"count": self.session_id_to_count[request.session[SESSION_ID_KEY]]}

    async def verify(self, request: Request, body):
        episode = self.episodes.pop(body.resources_session_id, None)
        count = self.session_id_to_count.pop(request.session[SESSION_ID_KEY], 0)
        return {"reward": float(count == episode["target"])}


if __name__ == "__main__":
    CounterSessionServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CounterSessionServer.run_webserver()  # noqa: F401
