from nemo_gym.server_utils import SimpleServer


class A(SimpleServer):
    async def seed_session(self, request, body):
        raise ValueError("an agent")


if __name__ == "__main__":
    A.run_webserver()
