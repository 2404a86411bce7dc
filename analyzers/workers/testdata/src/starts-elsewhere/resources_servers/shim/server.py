from nemo_gym.base_resources_server import SimpleResourcesServer


class ShimServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


ShimServer.run_webserver()
