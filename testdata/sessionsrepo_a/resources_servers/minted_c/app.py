"""The same base with a close that releases by the body's id and fences: silent."""

from resources_servers.minted_base.base import MintedBase

from nemo_gym.base_resources_server import ResourcesCloseSessionResponse, ResourcesSessionFences
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MintedC(MintedBase):
    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(60.0)

    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)


if __name__ == "__main__":
    MintedC.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MintedC.run_webserver()
