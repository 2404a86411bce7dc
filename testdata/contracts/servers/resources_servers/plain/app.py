from nemo_gym.base_resources_server import SimpleResourcesServer


class PlainServer(SimpleResourcesServer):
    """Stateless, but says nothing of several workers: GL101 where the framework has the refusal."""

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    PlainServer.run_webserver()
