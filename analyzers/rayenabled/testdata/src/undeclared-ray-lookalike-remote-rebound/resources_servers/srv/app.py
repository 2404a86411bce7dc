from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    def verify(self, body):
        from jobs import score

        score = LocalScorer(score)
        return score.remote(body)

    def rescore(self, score):
        return score.remote()


class LocalScorer:
    """Runs a scorer in this process; its remote() is not Ray's."""

    def __init__(self, fn):
        self.fn = fn

    def remote(self, body):
        return self.fn._function(body)


if __name__ == "__main__":
    Srv.run_webserver()
