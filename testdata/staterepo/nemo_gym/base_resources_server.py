from typing import Optional

from pydantic import BaseModel

from nemo_gym.server_utils import BaseServer, BaseServerConfig, SimpleServer


class BaseResourcesServerConfig(BaseServerConfig):
    domain: str = "other"


class BaseSeedSessionRequest(BaseModel):
    resources_session_id: Optional[str] = None


class BaseVerifyRequest(BaseModel):
    resources_session_id: Optional[str] = None


def lost_session_verification(reason: str) -> dict:
    return {"reward": 0.0, "mask_sample": True, "failure_kind": "session_lost", "failure_reason": reason}


class BaseResourcesServer(BaseServer):
    config: BaseResourcesServerConfig


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/seed_session")(self.seed_session)
        app.post("/verify")(self.verify)
        return app

    async def seed_session(self, request, body: BaseSeedSessionRequest):
        return {}

    async def verify(self, request, body: BaseVerifyRequest):
        raise NotImplementedError

    async def close_resources_session(self, body):
        return {}
