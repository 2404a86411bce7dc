from fastapi import Request

from resources_servers.turnbased import TurnServer
from resources_servers.turnbased.base import TurnRequest, TurnResponse


class MazeWalkServer(TurnServer):
    width: int = 4

    async def step(self, request: Request, body: TurnRequest) -> TurnResponse:
        state = self.session_state.setdefault(request.session["session_id"], {"x": 0})
        state["x"] += 1 if body.action == "right" else 0
        return TurnResponse(observation=str(state["x"]), done=state["x"] >= self.width)


if __name__ == "__main__":
    MazeWalkServer.run_webserver()
