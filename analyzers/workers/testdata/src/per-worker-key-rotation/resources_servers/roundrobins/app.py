from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


async def grade(payload, api_key=None):
    return {"score": 1.0}


# Round robins written other ways (through a local, wrapping with a
# conditional expression), and a failover over a list that is only named
# like keys (the problems' ids): none is a rotation of credentials by a
# failover.
class RoundRobins(SimpleResourcesServer):
    def model_post_init(self, context):
        self._api_keys = list(self.config.api_keys)
        self._next = 0
        self._idx = 0
        self._keys = sorted(self.config.problem_ids)
        self._cursor = 0

    async def verify(self, request: Request, body):
        n = len(self._api_keys)
        i = self._next
        self._next = (i + 1) % n
        result = await grade(body.model_dump(), api_key=self._api_keys[i])
        result = await grade(body.model_dump(), api_key=self._api_keys[self._idx])
        self._idx = 0 if self._idx + 1 == n else self._idx + 1
        problem = self._keys[self._cursor]
        if result["score"] < 1.0:
            self._cursor = (self._cursor + 1) % len(self._keys)
        return {"reward": result["score"], "problem": problem}


if __name__ == "__main__":
    RoundRobins.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RoundRobins.run_webserver()
