from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, lost_session_verification
from nemo_gym.verify_responses import BaseVerifyResponse


# A keyword argument between the spreads: one edit cannot merge them without
# moving it, so there is no fix (the golden is the file).
class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        if body.board_id not in self.boards:
            return BaseVerifyResponse(**body.model_dump(), note="gone", **lost_session_verification("gone"))  # want "GL308"
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)


if __name__ == "__main__":
    S.run_webserver()
