from nemo_gym.base_resources_server import SimpleResourcesServer

from resources_servers.board.launch import serve


class BoardServer(SimpleResourcesServer):  # want "GL101 server class BoardServer has neither a module-level app"
    async def verify(self, body):
        return body


# No __main__ guard: the module starts its server when run, through a
# helper that gymlint does not count as a start (it hands the class over).
serve(BoardServer)
