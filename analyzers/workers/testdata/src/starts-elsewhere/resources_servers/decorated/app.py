from nemo_gym.base_resources_server import SimpleResourcesServer

from resources_servers.decorated.launch import serve


# The decorator runs at import, with the class: it may start the server.
@serve
class DecoratedServer(SimpleResourcesServer):  # want "GL101 server class DecoratedServer"
    async def verify(self, body):
        return body
