from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.failures import BaseVerifyResponse, register_failure_kind

register_failure_kind("sandbox_gone")


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        # The vocabulary is open (the framework registers kinds at run
        # time): nothing is reported.
        return BaseVerifyResponse(reward=0.0, failure_kind="sandbox_gone")


if __name__ == "__main__":
    S.run_webserver()
