"""A maze whose state lives in the process: it keeps it per session."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


# GL302 is disabled in .gymlint.yaml: this suppression is not reported unused.
class MazeServer(SimpleResourcesServer):  # gymlint: ignore[GL302] the close is inherited on purpose
    async def seed_session(self, body: dict) -> dict:
        self.mazes[body["resources_session_id"]] = {"pos": 0}
        return {}

    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=1.0)


if __name__ == "__main__":
    MazeServer.run_webserver()
