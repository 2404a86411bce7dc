from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer


class Weather(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/get_forecast")(self.get_forecast)
        app.post("/aggregate_metrics")(self.sum_readings) # want `GL312 POST route /aggregate_metrics of Weather is named like the reserved MCP tool "aggregate_metrics" on a server exposed over MCP help: rename the route.*\(aggregate_metrics, mcp, seed_session, verify\), the names of RESERVED_MCP_TOOL_NAMES at nemo_gym/base_resources_server.py:`
        app.add_api_route("//mcp", self.get_forecast, methods=["POST"]) # want `POST route //mcp of Weather is named like the reserved MCP tool "mcp"`

        @app.post("/seed_session")  # want `route /seed_session of Weather is named like the reserved MCP tool "seed_session"`
        async def seed_tool(request: Request):
            return {}

        # Look-alikes: the framework's method registered again at its own path,
        # a GET route, a name the framework does not reserve, a catch-all.
        app.post("/verify")(self.verify)
        app.get("/mcp")(self.get_forecast)
        app.post("/close_session")(self.sum_readings)
        app.post("/{tool}")(self.get_forecast)
        return app

    async def get_forecast(self, body):
        return {}

    async def sum_readings(self, body):
        return {}

    async def verify(self, body):
        return {}


if __name__ == "__main__":
    Weather.run_webserver()
