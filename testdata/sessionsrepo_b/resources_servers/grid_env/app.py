"""A Gymnasium-style server: /reset and /step instead of seed and verify. Its step answers a
missing session with HTTP 400 (GL309). Its verify always raises NotImplementedError, so GL307 says
nothing."""

from fastapi import HTTPException, Request

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class GridEnv(SimpleResourcesServer):
    grids: dict = {}

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/reset")(self._reset_endpoint)
        app.post("/step")(self._step_endpoint)
        return app

    async def _reset_endpoint(self, request: Request, body):
        return await self.reset(body.size, request.session.get(SESSION_ID_KEY))

    async def _step_endpoint(self, request: Request, body):
        return await self.step(body.action, request.session.get(SESSION_ID_KEY))

    async def reset(self, size, session_id=None):
        self.grids[session_id] = [[0] * size for _ in range(size)]
        return {"observation": "reset"}

    async def step(self, action, session_id=None):
        if session_id is None or session_id not in self.grids:
            raise HTTPException(status_code=400, detail="Session not initialized. Call /reset first.")
        return {"observation": str(self.grids[session_id]), "reward": 0.0}

    async def verify(self, body):
        raise NotImplementedError("GridEnv scores in /step")

    def multiple_workers_unsupported_reason(self):
        return "Grids live in this process's memory."


if __name__ == "__main__":
    GridEnv.run_webserver()
