import random

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


random.seed(20240601)  # related "the global random stream is seeded here"


def rule_score(text):
    return 1.0 if random.random() < 0.5 else 0.0  # want `^GL109 rule_score draws from the global random stream, seeded once per worker at module scope of resources_servers/rules/app.py by random.seed\(\.\.\.\)`


class RulesServer(SimpleResourcesServer):
    async def verify(self, body):
        return {"reward": rule_score(body.text)}


if __name__ == "__main__":
    RulesServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RulesServer.run_webserver()  # related "module-level app of resources_servers/rules/app.py"
