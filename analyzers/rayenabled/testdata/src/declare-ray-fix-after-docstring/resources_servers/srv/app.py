import asyncio

import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class Srv(SimpleResourcesServer):  # want "GL201 server class Srv uses Ray"
    """Scores each answer with a Ray task."""

    async def verify(self, body):
        return await asyncio.to_thread(ray.get, body)


if __name__ == "__main__":
    Srv.run_webserver()
