"""Tool routes answer a missing session with an observation or HTTP 400 (GL309, three times);
verify calls a helper that raises HTTP 400 for it (GL306)."""

from fastapi import HTTPException

from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

PIECES = ("rook", "knight")


class BoardServer(SimpleResourcesServer):
    boards: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)
        self._locks = ResourcesSessionLocks()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/look")(self.look)
        app.post("/move")(self.move)
        for piece in PIECES:
            app.add_api_route(f"/move_{piece}", self._piece_handler(piece), methods=["POST"])
        return app

    async def seed_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self._fences.raise_if_fenced(body.resources_session_id)
            self.boards[body.resources_session_id] = {"moves": []}
        return None

    async def close_resources_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self.boards.pop(body.resources_session_id, None)
            self._fences.fence(body.resources_session_id, body.episode_id)
        return None

    def _require(self, body):
        board = self.boards.get(body.resources_session_id)
        if board is None:
            raise HTTPException(status_code=400, detail="Session not initialized. Call /seed_session first.")
        return board

    async def look(self, body):
        board = self.boards.get(body.resources_session_id)
        if not board:
            return {"observation": "Session not initialized. Call /seed_session first."}
        return {"observation": str(board["moves"])}

    async def move(self, body):
        self._require(body)["moves"].append(body.move)
        return {"observation": "ok"}

    def _piece_handler(self, piece):
        async def handler(body):
            if body.resources_session_id not in self.boards:
                raise HTTPException(status_code=409, detail=f"No board to move the {piece} on.")
            self.boards[body.resources_session_id]["moves"].append((piece, body.to))
            return {"observation": "ok"}

        return handler

    async def verify(self, body) -> BaseVerifyResponse:
        board = self._require(body)
        return BaseVerifyResponse(**body.model_dump(), reward=float(board["moves"] == body.expected))


if __name__ == "__main__":
    BoardServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = BoardServer.run_webserver()
