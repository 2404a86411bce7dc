from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY


class Shop(SimpleResourcesServer):  # want "GL302"
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/buy")(self.buy)
        return app

    async def seed_session(self, request: Request, body):
        self.carts[request.session[SESSION_ID_KEY]] = []  # related "per-session state self.carts is written here"  # want "GL322 .*seed_session writes .* without first checking for an existing record"

    def _cart(self, request):
        return self.carts.get(request.session[SESSION_ID_KEY])

    async def buy(self, request: Request, body):
        cart = self._cart(request)
        if cart is None:  # related "this test finds the session's state missing"
            return {"error": "no cart for this session"}  # want `GL309 Shop.buy answers with an observation \(.*\) when the session's state self.carts is missing \(.cart is None.\)`
        cart.append(body.item)
        return {"items": len(cart)}


if __name__ == "__main__":
    Shop.run_webserver()
