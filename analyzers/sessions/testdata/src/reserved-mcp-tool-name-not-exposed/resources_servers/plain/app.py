from nemo_gym.base_resources_server import SimpleResourcesServer


# Not exposed over MCP: the config turns it off (and a quoted "true" is a
# string), and mcp_tools drops the harvested routes.
class Plain(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/aggregate_metrics")(self.sum_readings)
        app.post("/mcp")(self.sum_readings)
        return app

    def mcp_tools(self, harvested, catchall):
        return None

    async def sum_readings(self, body):
        return {}


if __name__ == "__main__":
    Plain.run_webserver()
