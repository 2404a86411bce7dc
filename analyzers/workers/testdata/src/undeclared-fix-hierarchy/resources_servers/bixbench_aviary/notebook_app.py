from fastapi import Request

from resources_servers.aviary.app import AviaryEnvServer


class BixBenchServer(AviaryEnvServer):  # want "GL101 server class BixBenchServer has neither"
    async def seed_session(self, request: Request, body):
        self.notebooks[body.env_id] = open_notebook(body.task)

    async def verify(self, request: Request, body):
        return self.notebooks[body.env_id].score()


if __name__ == "__main__":
    BixBenchServer.run_webserver()
