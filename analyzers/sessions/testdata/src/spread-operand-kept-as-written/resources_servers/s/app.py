from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, lost_session_verification
from nemo_gym.verify_responses import BaseVerifyResponse


# The fix keeps the lost-session call as written: the comment inside it and
# the string's two spaces. Every other mapping is a request's dump, a dict:
# the merge answers as the spread did, but for the TypeError (a safe fix).
class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        if body.board_id not in self.boards:  # want +2 "GL308"
            return BaseVerifyResponse(
                **body.model_dump(),
                **lost_session_verification(
                    "the  board is gone",  # the board's sandbox expired
                    failure_kind="session_lost",
                ),
            )
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)


if __name__ == "__main__":
    S.run_webserver()
