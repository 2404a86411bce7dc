from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionLostError, SimpleResourcesServer, lost_session_verification
from nemo_gym.failures import SESSION_EXPIRED, BaseVerifyResponse
from nemo_gym import base_resources_server as brs

MY_KIND = "made_up_kind"


class QuizResponse(BaseVerifyResponse):
    pass


def log_failure(failure_kind):
    return failure_kind


class S(SimpleResourcesServer):
    async def tool(self, request: Request, body):
        if body.x:
            raise ResourcesSessionLostError("gone", "sandbox_gone")  # want "GL316 failure_kind \"sandbox_gone\" is not in the framework's registered failure vocabulary \\(FAILURE_KINDS\\) help: use a registered kind \\(session_lost, session_expired, sandbox_unavailable\\), through the framework's constant, or register \"sandbox_gone\" in FAILURE_KINDS"
        raise brs.ResourcesSessionLostError("gone", failure_kind="sandbox_unavailable")

    async def verify(self, request: Request, body):
        if body.expired:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("ttl", failure_kind="session_expierd")))  # want "GL316 failure_kind \"session_expierd\" is not in"
        if body.lost:
            return QuizResponse(reward=0.0, failure_kind="lost")  # want "GL316 failure_kind \"lost\" is not in"
        # Look-alikes: registered kinds, by literal and through the
        # framework's constant; a kind through a constant of the server's; a
        # function that is not the framework's.
        if body.a:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("ttl", SESSION_EXPIRED)))
        if body.b:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("ttl", "session_lost")))
        if body.c:
            return QuizResponse(reward=0.0, failure_kind=MY_KIND)
        log_failure(failure_kind="not_a_response")
        return QuizResponse(reward=1.0)


if __name__ == "__main__":
    S.run_webserver()
