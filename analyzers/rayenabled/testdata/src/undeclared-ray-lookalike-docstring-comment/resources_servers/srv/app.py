from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
"""Scores SQL; unlike the old version this does not use Ray (import ray)."""
# ray.get(ref) used to be here


class Srv(SimpleResourcesServer):
    async def verify(self, body):
        """ray.remote is not used."""
        return body


if __name__ == "__main__":
    Srv.run_webserver()
