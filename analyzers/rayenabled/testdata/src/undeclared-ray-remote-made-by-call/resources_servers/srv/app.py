from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want `GL201 .*line 9 calls score_remote.remote\(\) \(score_remote is made a Ray remote object at resources_servers/srv/jobs.py:8\)`
    def verify(self, body):
        from jobs import score_remote
        return score_remote.remote(body)


if __name__ == "__main__":
    Srv.run_webserver()
