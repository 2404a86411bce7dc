from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        tok = self.tokenizers.get(body.model)
        if tok is None:
            tok = self.tokenizers[body.model] = load_tokenizer(body.model)
        return {}

    async def verify(self, request: Request, body):
        tok = self.tokenizers.get(body.model)
        if tok is None:
            tok = load_tokenizer(body.model)
            self.tokenizers[body.model] = tok
        return tok.score(body)


if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
