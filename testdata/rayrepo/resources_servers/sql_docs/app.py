"""Grades SQL answers by string match.

Earlier versions ran both queries with Ray (`ray.get` on a pool of workers); this one
needs no cluster at all, so it does not import ray.
"""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class Ray:
    """A half-line in the plane (nothing to do with the Ray cluster)."""

    def __init__(self, angle: float):
        self.angle = angle

    def get(self, key: str) -> float:
        return self.angle

    def remote(self) -> "Ray":
        return Ray(-self.angle)


class SqlDocsServer(SimpleResourcesServer):
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        # ray.init() used to be called here.
        ray = Ray(0.5)
        far = ray.remote()
        reward = 1.0 if body.response_text.strip().upper().startswith("SELECT") else far.get("angle")
        return BaseVerifyResponse(response_text=body.response_text, reward=reward)


if __name__ == "__main__":
    SqlDocsServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SqlDocsServer.run_webserver()  # noqa: F401
