from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        return app

    async def seed_session(self, request, body):
        return {}

    async def verify(self, request, body):
        raise NotImplementedError
