from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want `GL201 .*line 10 calls j.Scorer.remote\(\) \(Scorer is a Ray actor class of resources_servers/srv/actors.py:5\)`
    async def verify(self, body):
        import jobs as j

        actor = j.Scorer.options(num_gpus=1).remote()
        return actor


if __name__ == "__main__":
    Srv.run_webserver()
