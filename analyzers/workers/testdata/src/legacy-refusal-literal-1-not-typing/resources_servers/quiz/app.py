from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer


class Literal:
    """A class of the repository that happens to be called Literal."""

    def __class_getitem__(cls, item):
        return int


# Not typing's Literal: nothing to report.
class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
    config: QuizConfig
