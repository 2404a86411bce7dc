"""Card games kept by table_id from the body; refuses several workers when it keeps them in memory."""

from typing import Dict, Optional

from fastapi import Request
from pydantic import Field

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class CardTableConfig(BaseResourcesServerConfig):
    tables_in_memory: bool = True


class CardTableServer(SimpleResourcesServer):
    config: CardTableConfig
    tables: Dict[str, list] = Field(default_factory=dict)

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        if self.config.tables_in_memory:
            return "Tables are kept in memory by the table_id in the request body, which session routing does not follow."
        return None

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/deal")(self.deal)
        return app

    async def seed_session(self, request: Request, body):
        self.tables[body.table_id] = []
        return {}

    async def deal(self, request: Request, body):
        self.tables[body.table_id].append(body.card)
        return {}

    async def verify(self, request: Request, body):
        return {"reward": float(len(self.tables.pop(body.table_id, [])))}


if __name__ == "__main__":
    CardTableServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = CardTableServer.run_webserver()  # noqa: F401
