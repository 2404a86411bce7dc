import logging

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


# A returned observation becomes `raise HTTPException(status_code=404, ...)`,
# with the import in the third-party section.
class Quiz(SimpleResourcesServer):  # want "GL317"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/answer")(self.answer)
        return app

    async def seed_session(self, request: Request, body):
        self.quizzes.setdefault(request.session[SESSION_ID_KEY], {"score": 0})

    async def answer(self, request: Request, body):
        quiz = self.quizzes.get(request.session[SESSION_ID_KEY])
        if quiz is None:
            logging.warning("no quiz")
            return "no quiz"  # want "GL309 Quiz.answer answers with the string"
        quiz["score"] += 1
        return "ok"

    async def close_resources_session(self, body):  # want "GL303"
        self.quizzes.pop(body.resources_session_id, None)


if __name__ == "__main__":
    Quiz.run_webserver()
