from fastapi import Request

from resources_servers.turnbased import TurnRequest, TurnResponse, TurnServer


class TicTacServer(TurnServer):
    boards: dict[str, list[str]] = {}

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Boards are kept in a plain dict in this process, outside session routing."

    async def step(self, request: Request, body: TurnRequest) -> TurnResponse:
        board = self.boards.setdefault(request.session["session_id"], [" "] * 9)
        board[int(body.action)] = "X"
        return TurnResponse(observation="".join(board), done=" " not in board)


if __name__ == "__main__":
    TicTacServer.run_webserver()
