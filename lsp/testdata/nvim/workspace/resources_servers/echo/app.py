"""A resources server that answers with what it was sent."""

from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return {"reward": 1.0, "echo": body}


if __name__ == "__main__":
    EchoServer.run_webserver()
