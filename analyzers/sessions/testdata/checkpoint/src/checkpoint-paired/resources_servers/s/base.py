from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Exports(SimpleResourcesServer):
    async def export_session_states(self, session_ids):
        return {}


class Both(Exports):
    # The pair is split across the server and its base.
    async def restore_session_states(self, states):
        return None


class Neither(SimpleResourcesServer):
    async def verify(self, body):
        return None
