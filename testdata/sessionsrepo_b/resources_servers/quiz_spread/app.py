"""Spreads the lost-session fields as keyword arguments next to the request's (GL308, twice)."""

from nemo_gym import base_resources_server as brs
from nemo_gym.base_resources_server import (
    BaseVerifyResponse,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    ResourcesSessionLostError,
    SimpleResourcesServer,
)
from nemo_gym.base_resources_server import lost_session_verification as lost_fields
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def expired(body):
    return BaseVerifyResponse(
        **body.model_dump(),
        **brs.lost_session_verification("quiz expired", failure_kind="session_expired"),
    )


def merged(body):
    # The corrected shape: not reported.
    return BaseVerifyResponse(**(body.model_dump() | lost_fields("quiz is gone")))


class QuizServer(SimpleResourcesServer):
    quizzes: dict = {}

    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)
        self._locks = ResourcesSessionLocks()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/answer")(self.answer)
        return app

    async def seed_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self._fences.raise_if_fenced(body.resources_session_id)
            self.quizzes[body.resources_session_id] = {"answers": [], "deadline": body.deadline}
        return None

    async def close_resources_session(self, body):
        async with self._locks.locked(body.resources_session_id):
            self.quizzes.pop(body.resources_session_id, None)
            self._fences.fence(body.resources_session_id, body.episode_id)
        return None

    async def answer(self, body):
        quiz = self.quizzes.get(body.resources_session_id)
        if quiz is None:
            raise ResourcesSessionLostError("the quiz session is gone")
        quiz["answers"].append(body.text)
        return {"observation": "noted"}

    async def verify(self, body) -> BaseVerifyResponse:
        quiz = self.quizzes.get(body.resources_session_id)
        if quiz is None:
            return BaseVerifyResponse(**body.model_dump(), **lost_fields("quiz is gone"))
        if quiz["deadline"] < body.now:
            return expired(body)
        return BaseVerifyResponse(**body.model_dump(), reward=float(body.expected in quiz["answers"]))


if __name__ == "__main__":
    QuizServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = QuizServer.run_webserver()
