"""Places each episode's workers together, on the first server API (nemo_gym.compat)."""

from ray.util.placement_group import placement_group

from nemo_gym.compat import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class LegacyPlacementServer(SimpleResourcesServer):
    ray_enabled = True

    async def verify(self, body: dict) -> dict:
        group = placement_group([{"CPU": 1}] * 2, strategy="PACK")
        return {"reward": 1.0, "group": str(group.id)}


if __name__ == "__main__":
    LegacyPlacementServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LegacyPlacementServer.run_webserver()  # noqa: F401
