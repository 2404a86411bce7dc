import fire
from nemo_gym.base_resources_server import SimpleResourcesServer


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer"
    async def verify(self, body):
        return body


# The command-line helper calls the function it is given: a function of the
# repository that may start the server.
if __name__ == "__main__":
    from resources_servers.cli_main.runner import main

    fire.Fire(main)
