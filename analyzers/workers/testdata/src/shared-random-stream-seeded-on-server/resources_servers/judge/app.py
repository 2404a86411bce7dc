import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class JudgeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self.rng = random.Random(self.config.seed)  # related "self.rng is seeded here, once in every worker"

    async def verify(self, body):
        pick = self.rng.choice(body.candidates)  # want `^GL109 JudgeServer.verify draws from self.rng, seeded once per worker in JudgeServer.model_post_init by random.Random\(\.\.\.\): each worker replays its own copy of the stream help: draw from a generator seeded by the request in the scoring code .*, or override multiple_workers_unsupported_reason\(\) on JudgeServer to return "Scoring draws from one random stream shared by the whole server."$`
        again = self.rng.random()
        return {"reward": float(pick == body.answer) * again}


if __name__ == "__main__":
    JudgeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = JudgeServer.run_webserver()  # related "module-level app of resources_servers/judge/app.py"
