import json
import os
import tempfile

from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint


class AlikeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        # Each worker resolves its own cache directory (pid and a random
        # suffix): the config field is per process from here on.
        self.config.cache_dir = os.path.join(self.config.cache_dir, f"{os.getpid()}-{os.urandom(4).hex()}")

    async def seed_session(self, request: Request, body):
        # Under the session's own directory, by the cookie or by the body.
        d = os.path.join(self.config.root, request.session[SESSION_ID_KEY])
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "state.json"), "w") as f:
            json.dump({}, f)
        with open(os.path.join(self.config.root, body.resources_session_id, "s.json"), "w") as f:
            json.dump({}, f)
        return {}

    async def verify(self, body):
        # A temporary file, a read-only open, a path with the pid.
        fd, tmp = tempfile.mkstemp()
        with open(tmp, "w") as f:
            f.write("x")
        with tempfile.NamedTemporaryFile("w", delete=False) as t:
            t.write("y")
        with open(self.config.data, "r") as f:
            f.read()
        with open(self.config.data) as f:
            f.read()
        with open(f"{self.config.root}/{os.getpid()}.log", "a") as f:
            f.write("z")
        with open(os.path.join(self.config.cache_dir, "submissions.jsonl"), "a") as f:
            f.write("s")
        self._write(print)
        self.result_path.write_text("x")
        return body

    def _write(self, open):
        # A parameter named open, not the builtin.
        open(self.config.log_path, "a")


if __name__ == "__main__":
    AlikeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = AlikeServer.run_webserver()
