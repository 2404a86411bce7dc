from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want `GL201 .*line 10 calls score.remote\(\) \(score is a Ray remote function of resources_servers/srv/jobs.py:5\)`
    async def verify(self, body):
        from jobs import score

        return await score.remote(body)


if __name__ == "__main__":
    Srv.run_webserver()
