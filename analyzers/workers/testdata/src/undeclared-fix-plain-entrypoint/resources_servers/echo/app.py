"""Echo."""

from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):  # want "GL101 server class EchoServer of"
    async def verify(self, body):
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
