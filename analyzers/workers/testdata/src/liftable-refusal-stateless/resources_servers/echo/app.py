from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Not tested with several workers."

    async def verify(self, body):
        return {"reward": 1.0}


if __name__ == "__main__":
    EchoServer.run_webserver()
