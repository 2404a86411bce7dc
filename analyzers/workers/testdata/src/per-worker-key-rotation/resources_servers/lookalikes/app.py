import hashlib
import itertools
import random

import redis.asyncio
from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


async def call_grader(payload, api_key=None, base_url=None):
    return {"score": 1.0}


# A key picked at random, a round robin over the keys (a cycle, a counter
# moved on every request: each worker spreads its requests over every key
# as one worker does), a retry loop that starts from the first key on every
# request, a key chosen by the session, a key fixed per worker at
# start-up, a round-robin over endpoints (not credentials) and a cursor kept
# in a shared store: none of them is a rotation the workers would have to
# share.
class Careful(SimpleResourcesServer):
    def model_post_init(self, context):
        self._api_keys = list(self.config.api_keys)
        self._fixed_key = self._api_keys[self._start]
        self._start = 0
        self._urls = list(self.config.grader_urls)
        self._url_index = 0
        self._tokens = itertools.cycle(self.config.api_keys)
        self._clients = [object() for _ in self.config.api_keys]
        self._num_requests = 0
        self._store = redis.asyncio.Redis.from_url(self.config.store_url)

    async def verify(self, request: Request, body):
        result = await call_grader(body.model_dump(), api_key=random.choice(self._api_keys))
        for attempt in range(len(self._api_keys)):
            result = await call_grader(body.model_dump(), api_key=self._api_keys[attempt])
            if result:
                break
        digest = int(hashlib.sha256(body.session_id.encode()).hexdigest(), 16)
        result = await call_grader(body.model_dump(), api_key=self._api_keys[digest % len(self._api_keys)])
        result = await call_grader(body.model_dump(), api_key=self._fixed_key)
        url = self._urls[self._url_index % len(self._urls)]
        self._url_index += 1
        result = await call_grader(body.model_dump(), base_url=url)
        turn = await self._store.incr("key-cursor")
        result = await call_grader(body.model_dump(), api_key=self._api_keys[turn % len(self._api_keys)])
        result = await call_grader(body.model_dump(), api_key=next(self._tokens))
        client = self._clients[self._num_requests % len(self._clients)]
        self._num_requests += 1
        result = await call_grader(body.model_dump(), api_key=client)
        return {"reward": result["score"]}


if __name__ == "__main__":
    Careful.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Careful.run_webserver()
