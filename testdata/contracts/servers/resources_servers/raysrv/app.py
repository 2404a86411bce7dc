import ray

from nemo_gym.base_resources_server import SimpleResourcesServer


class RayServer(SimpleResourcesServer):
    """Uses Ray without declaring it: GL201 where the framework starts Ray per declaration."""

    def multiple_workers_unsupported_reason(self):
        return "one Ray actor per process"

    async def verify(self, body):
        score = await ray.get(self.judge.remote(body))
        return {"reward": score}


if __name__ == "__main__":
    RayServer.run_webserver()
