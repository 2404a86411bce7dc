from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer, lost_session_verification
from nemo_gym.verify_responses import BaseVerifyResponse


# The other mapping is a parameter of any type: `|` needs a dict where `**`
# takes any mapping, so the fix is unsafe. A local assigned a dump is a dict:
# that fix is safe.
class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        fields = body.model_dump()
        if body.board_id not in self.boards:
            return BaseVerifyResponse(**fields, **lost_session_verification("gone"))  # want "GL308"
        return BaseVerifyResponse(**fields, reward=1.0)

    def masked(self, extra):
        return BaseVerifyResponse(**extra, **lost_session_verification("gone"))  # want "GL308"


if __name__ == "__main__":
    S.run_webserver()
