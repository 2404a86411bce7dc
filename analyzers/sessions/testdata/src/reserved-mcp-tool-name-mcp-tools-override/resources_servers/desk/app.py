from nemo_gym.base_resources_server import SimpleResourcesServer


class Desk(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/mcp")(self.lookup) # want `POST route /mcp of Desk is named like the reserved MCP tool "mcp"`
        app.post("/lookup")(self.lookup)
        app.post("/{name}")(self.dispatch)
        return app

    def mcp_tools(self, harvested, catchall): # related "Desk.mcp_tools exposes the harvested routes over MCP"
        if catchall is None:
            return harvested
        return harvested + [catchall.tool("verify"), catchall.tool("list_files")] # want `Desk.mcp_tools exposes the MCP tool "verify", a reserved name: the server refuses to start`

    async def lookup(self, body):
        return {}

    async def dispatch(self, name: str, body: dict):
        return {}


if __name__ == "__main__":
    Desk.run_webserver()
