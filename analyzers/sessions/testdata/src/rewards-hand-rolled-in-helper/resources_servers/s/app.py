from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.verify_responses import BaseVerifyRequest

import grading  # noqa: F401  (registers the graders)
from resources_servers.s.scoring import ScoredResponse


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body: BaseVerifyRequest) -> ScoredResponse:
        return ScoredResponse(reward=1.0, reward_components={"exact": 1.0})


if __name__ == "__main__":
    S.run_webserver()
