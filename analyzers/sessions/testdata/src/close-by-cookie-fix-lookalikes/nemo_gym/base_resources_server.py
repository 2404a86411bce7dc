from fastapi import HTTPException
from pydantic import BaseModel
from nemo_gym.server_utils import SimpleServer, SESSION_ID_KEY


class BaseSeedSessionRequest(BaseModel):
    pass


class ResourcesSeedSessionRequest(BaseModel):
    resources_session_id: str
    episode_id: str
    task_data: dict


class ResourcesSeedRejectedError(HTTPException, ValueError):
    pass


class ResourcesSessionConflictError(HTTPException, ValueError):
    pass


class ResourcesSessionLostError(HTTPException):
    pass


class ResourcesSessionFences:
    def fence(self, resources_session_id, record):
        pass

    def raise_if_fenced(self, resources_session_id):
        pass


class ResourcesSessionLocks:
    def locked(self, resources_session_id):
        pass


def lost_session_verification(reason, failure_kind="session_lost"):
    return {}


class BaseResourcesServer:
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    async def seed_session(self, body):
        return None

    async def close_resources_session(self, body):
        return None


RESERVED_MCP_TOOL_NAMES = frozenset({"verify", "seed_session", "aggregate_metrics", "mcp"})


def mcp_session_token_serializer(secret):
    return None


def mcp_session_token_payload(serializer, token):
    return None


# The case's framework adds the close's request body.
class ResourcesCloseSessionRequest(BaseModel):
    resources_session_id: str
    episode_id: str
