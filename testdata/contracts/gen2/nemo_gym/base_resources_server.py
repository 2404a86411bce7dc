from nemo_gym.server_utils import BaseServer, SimpleServer


class BaseResourcesServer(BaseServer):
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        app.post("/close_session")(self.close_resources_session)
        return app

    async def seed_session(self, request, body):
        return {}

    async def verify(self, request, body):
        raise NotImplementedError

    async def close_resources_session(self, body):
        return {}
