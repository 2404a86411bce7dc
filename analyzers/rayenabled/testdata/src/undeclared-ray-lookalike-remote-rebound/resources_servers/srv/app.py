from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):
    def verify(self, body):
        from jobs import score

        score = local_scorer(score)
        return score.remote(body)

    def rescore(self, score):
        return score.remote()


def local_scorer(fn):
    return fn


if __name__ == "__main__":
    Srv.run_webserver()
