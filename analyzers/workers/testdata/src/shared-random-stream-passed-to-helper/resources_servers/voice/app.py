import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def score_rule(row, rng):
    if row.rule == "coin":
        return float(rng.random() < row.p)
    return 1.0


class VoiceServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self._rng = random.Random(self.config.legacy_seed)  # related "self._rng is seeded here, once in every worker"

    async def verify(self, body):
        return {"reward": score_rule(body, rng=self._rng)}  # want `^GL109 VoiceServer.verify passes self._rng, seeded once per worker in VoiceServer.model_post_init by random.Random\(\.\.\.\), to score_rule, which draws from it: each worker replays its own copy of the stream help: `


if __name__ == "__main__":
    VoiceServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = VoiceServer.run_webserver()  # related "module-level app of resources_servers/voice/app.py"
