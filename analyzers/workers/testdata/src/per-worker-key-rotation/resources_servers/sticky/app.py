from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class QuotaExceeded(Exception):
    pass


async def grade(text: str, credential: str) -> float:
    return 1.0


# Each grade starts from the key that last worked and tries the next ones;
# the cursor lands on the key that answered. Nothing tests it: the loop and
# the exception decide where it lands.
class Sticky(SimpleResourcesServer):
    def model_post_init(self, context):
        self._secrets = [s.strip() for s in self.config.grader_secrets.split(",")]
        self._cursor = 0

    async def verify(self, request: Request, body):
        count = len(self._secrets)
        for step in range(count):
            index = (self._cursor + step) % count
            try:
                score = await grade(body.response.output_text, self._secrets[index])  # want "GL117 Sticky.verify picks a key of self._secrets by the cursor self._cursor"
            except QuotaExceeded:
                continue
            self._cursor = index
            return {"reward": score}
        return {"reward": 0.0}


if __name__ == "__main__":
    Sticky.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Sticky.run_webserver()
