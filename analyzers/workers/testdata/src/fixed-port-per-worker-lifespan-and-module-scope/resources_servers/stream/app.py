from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
import asyncio
import http.server
from http.server import BaseHTTPRequestHandler

metrics = http.server.HTTPServer(("", 8080), BaseHTTPRequestHandler)  # want `^GL108 server class StreamServer starts an HTTP server on the fixed port 8080 at start-up \(at module scope\), so every worker binds the same port`


class StreamServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()

        async def lifespan(app):
            server = await asyncio.start_server(self._handle, "127.0.0.1", "7000")  # want `^GL108 server class StreamServer starts an asyncio server on the fixed port 7000 at start-up \(in StreamServer.setup_webserver.lifespan\)`
            yield
            server.close()

        app.router.lifespan_context = lifespan
        return app

    async def _handle(self, reader, writer):
        writer.close()

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    StreamServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = StreamServer.run_webserver()  # related "module-level app of resources_servers/stream/app.py: uvicorn"
