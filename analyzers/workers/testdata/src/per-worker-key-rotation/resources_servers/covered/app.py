from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from openai import AsyncOpenAI, RateLimitError


# The failover of ../failover, with a refusal that holds exactly when the
# judge (and its rotation) runs.
class Covered(SimpleResourcesServer):
    def model_post_init(self, context):
        self._tokens = list(self.config.judge_tokens)
        self._current = 0

    def multiple_workers_unsupported_reason(self):
        if self.config.use_judge:
            return "The judge's tokens are rotated by a cursor in this process's memory."
        return None

    async def verify(self, request: Request, body):
        if not self.config.use_judge:
            return {"reward": 0.0}
        client = AsyncOpenAI(api_key=self._tokens[self._current])
        try:
            answer = await client.responses.create(model="judge", input=body.response.output_text)
        except RateLimitError:
            self._current = (self._current + 1) % len(self._tokens)
            raise
        return {"reward": float(answer.output_text.strip() == "yes")}


if __name__ == "__main__":
    Covered.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Covered.run_webserver()
