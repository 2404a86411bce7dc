from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from openai import AsyncOpenAI, RateLimitError


# Fail over to the next configured token when the judge rate-limits this
# one, only when the judge is enabled: the position is one worker's.
class Failover(SimpleResourcesServer):
    def model_post_init(self, context):
        tokens = self.config.judge_tokens
        self._tokens = tokens
        self._current = 0

    async def verify(self, request: Request, body):
        if not self.config.use_judge:
            return {"reward": 0.0}
        client = AsyncOpenAI(api_key=self._tokens[self._current])  # want "GL117 Failover.verify picks a key of self._tokens by the cursor self._current"
        try:
            answer = await client.responses.create(model="judge", input=body.response.output_text)
        except RateLimitError:
            self._current = (self._current + 1) % len(self._tokens)
            raise
        return {"reward": float(answer.output_text.strip() == "yes")}


if __name__ == "__main__":
    Failover.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Failover.run_webserver()
