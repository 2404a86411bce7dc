from resources_servers.quiz.base import QuizBase


class QuizServer(QuizBase):  # want "GL101 server class QuizServer has neither"
    pass
