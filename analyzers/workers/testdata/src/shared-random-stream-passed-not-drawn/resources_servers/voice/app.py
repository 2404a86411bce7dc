import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def describe(row, rng):
    rng = random.Random(row.seed)
    return {"rule": row.rule, "draw": rng.random()}


def log_state(rng):
    return repr(rng.getstate())


class VoiceServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self._rng = random.Random(self.config.legacy_seed)

    async def verify(self, body):
        info = describe(body, self._rng)
        return {"reward": 1.0, "info": info, "state": log_state(self._rng)}


if __name__ == "__main__":
    VoiceServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = VoiceServer.run_webserver()
