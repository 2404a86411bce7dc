import fastapi
from fastapi import FastAPI
from nemo_gym.base_resources_server import SimpleResourcesServer


class Direct(SimpleResourcesServer):
    def setup_webserver(self):  # want `GL321 Direct.setup_webserver builds its own app with FastAPI\(\) instead of overriding register_protocol_routes help: override register_protocol_routes\(self, app\) and add the server's routes to the app the framework builds$`
        app = FastAPI()  # related "the app is built here"
        app.post("/reset")(self.reset)
        return app

    async def reset(self, body):
        return None


class Helper(SimpleResourcesServer):
    def setup_webserver(self):  # want `GL321 Helper.setup_webserver builds its own app with FastAPI\(\) \(through Helper._app\) instead`
        app = self._app()
        app.post("/step")(self.step)
        return app

    def _app(self):
        return fastapi.FastAPI(title="gym")  # related "the app is built here"

    async def step(self, body):
        return None


class Factory(SimpleResourcesServer):
    def create_resources_app(self):  # want `GL321 Factory.create_resources_app overrides create_resources_app, building the resources app itself help: override register_protocol_routes`
        return None


class Child(Factory):
    pass


class Extends(Direct):
    # Extends Direct's own app: Direct's setup_webserver is the finding.
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/close")(self.reset)
        return app
