"""Binds app only in nested scopes: a lambda and a comprehension."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer

ROUTE_TABLES = [["/verify"], ["/seed_session", "/aggregate_metrics"]]

route_count = lambda app: len(app.routes)
flat_routes = [app for table in ROUTE_TABLES for app in table]


class ScopedServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=float(len(flat_routes) > 0))


if __name__ == "__main__":
    ScopedServer.run_webserver()
