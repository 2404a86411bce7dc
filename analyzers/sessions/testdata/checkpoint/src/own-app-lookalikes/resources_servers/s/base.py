from nemo_gym.base_resources_server import SimpleResourcesServer


class FastAPI:
    pass


class Hooked(SimpleResourcesServer):
    def register_protocol_routes(self, app):
        app.post("/step")(self.step)

    async def step(self, body):
        return None


class Extends(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        return app

    async def step(self, body):
        return None


class LocalClass(SimpleResourcesServer):
    # FastAPI here is a class of the module, not fastapi's.
    def setup_webserver(self):
        return FastAPI()
