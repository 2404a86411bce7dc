"""Turns Ray on at run time, which the supervisor never sees."""

import ray

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class MethodSetServer(SimpleResourcesServer):
    def configure(self) -> None:
        self.ray_enabled = True

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        ref = ray.put(body.response_text)
        return BaseVerifyResponse(response_text=ray.get(ref), reward=1.0)


class MethodSetLiteServer(MethodSetServer):
    pass


setattr(MethodSetLiteServer, "ray_enabled", True)


if __name__ == "__main__":
    MethodSetLiteServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MethodSetLiteServer.run_webserver()  # noqa: F401
