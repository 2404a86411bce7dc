import contextlib
import fcntl
import json

import filelock
from filelock import FileLock
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

LOG = "/tmp/locked.jsonl"


@contextlib.contextmanager
def locked(path):
    with open(path + ".lock", "w") as lf:
        fcntl.flock(lf.fileno(), fcntl.LOCK_EX)
        yield


class LockedServer(SimpleResourcesServer):
    async def verify(self, body):
        # The fixed shape: a file lock around each append.
        with open(self.config.log_path, "a") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            f.write("x\n")
        with FileLock(LOG + ".lock"):
            with open(LOG, "a") as f:
                f.write("y\n")
        with filelock.FileLock(self.config.state + ".lock"):
            with open(self.config.state, "w") as f:
                json.dump({}, f)
        with locked(self.config.other):
            with open(self.config.other, "a") as f:
                f.write("z\n")
        return body


if __name__ == "__main__":
    LockedServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LockedServer.run_webserver()
