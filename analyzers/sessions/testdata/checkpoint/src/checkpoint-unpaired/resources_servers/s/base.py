from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Base(SimpleResourcesServer):
    async def export_session_states(self, session_ids):  # want `GL318 Base.export_session_states overrides export_session_states but not restore_session_states: the states it checkpoints are dropped on resume help: override restore_session_states as the inverse of export_session_states: validate every state it is given, then install them all$`
        return {}


class S(Base):  # related "server S inherits this export_session_states"
    pass


class R(SimpleResourcesServer):
    async def restore_session_states(self, states):  # want `GL318 R.restore_session_states overrides restore_session_states but not export_session_states: checkpoints hold no state to restore help: override export_session_states as the inverse of restore_session_states$`
        return None
