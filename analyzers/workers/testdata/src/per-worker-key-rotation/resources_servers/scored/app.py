from typing import List, Union

import httpx
from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


async def post_scores(rows, api_key: str):
    async with httpx.AsyncClient() as client:
        return await client.post("https://scores.invalid/v1/batch", json=rows, headers={"x-api-key": api_key})


# Sticky rotation through the configured keys: the cursor moves on a 429 and
# stays on a key that works, in this worker's memory.
class Scored(SimpleResourcesServer):
    def model_post_init(self, context):
        raw: Union[str, List[str]] = self.config.api_key
        self._api_keys = [raw] if isinstance(raw, str) else list(raw)
        self._key_index = 0

    async def verify(self, request: Request, body):
        result = await self._score_with_rotation([body.model_dump()])
        return {"reward": float(result["score"])}

    async def _score_with_rotation(self, rows):
        n = len(self._api_keys)
        for attempt in range(n):
            current = (self._key_index + attempt) % n
            response = await post_scores(rows, self._api_keys[current])  # want "GL117 Scored._score_with_rotation picks a key of self._api_keys by the cursor self._key_index"
            if response.status_code != 429:
                self._key_index = current
                return response.json()
        raise RuntimeError("every key is rate-limited")


if __name__ == "__main__":
    Scored.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Scored.run_webserver()
