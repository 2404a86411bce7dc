"""Keeps no per-session state: its lookups of a catalogue are not lost sessions."""

from fastapi import HTTPException

from nemo_gym.base_resources_server import BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

RUBRICS = {"math": 1.0}


class JudgeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/rubric")(self.rubric)
        return app

    async def rubric(self, body):
        if body.topic not in RUBRICS:
            raise HTTPException(status_code=400, detail="unknown topic")
        return {"weight": RUBRICS[body.topic]}

    async def verify(self, body) -> BaseVerifyResponse:
        if body.topic not in RUBRICS:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=RUBRICS[body.topic])


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()
