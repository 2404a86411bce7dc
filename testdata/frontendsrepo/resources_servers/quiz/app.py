"""A quiz server that runs with one worker."""

from nemo_gym.base_resources_server import BaseVerifyRequest, BaseVerifyResponse, SimpleResourcesServer


class QuizServer(SimpleResourcesServer):  # gymlint: ignore[GL101] deployed with num_workers: 1 only
    async def verify(self, body: BaseVerifyRequest) -> BaseVerifyResponse:
        return BaseVerifyResponse(response_text=body.response_text, reward=0.5)


# gymlint: ignore[GL201] left over from when the quiz used Ray
if __name__ == "__main__":
    QuizServer.run_webserver()
