import logging

from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer

logger = logging.getLogger(__name__)


# A retire of the base's own that only logs: the release is added at its
# end, on its receiver and by its parameter.
class Quiet(SimpleResourcesServer):
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[body.resources_session_id] = object()
        return None

    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def retire_session_state(this, sid):  # want "GL317 Quiet.retire_session_state releases nothing"
        """Forget the session."""
        logger.info("retired %s", sid)
