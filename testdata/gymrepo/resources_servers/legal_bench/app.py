"""Legal document review tasks scored against a rubric."""

from fastapi import FastAPI

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class LegalBenchServer(SimpleResourcesServer):
    tasks_dir: str = "resources_servers/legal_bench/data/tasks"

    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.get("/tasks")(self.list_tasks)
        return app

    async def list_tasks(self) -> list[str]:
        return []

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=0.0)


if __name__ == "__main__":
    LegalBenchServer.run_webserver()
