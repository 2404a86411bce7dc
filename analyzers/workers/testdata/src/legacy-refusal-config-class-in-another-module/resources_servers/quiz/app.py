from nemo_gym.base_resources_server import SimpleResourcesServer
from resources_servers.quiz.settings import QuizConfig


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
