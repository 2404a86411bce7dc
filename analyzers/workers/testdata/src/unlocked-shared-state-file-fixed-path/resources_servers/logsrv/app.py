import json
import os
from pathlib import Path

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

STATE_DIR = Path(__file__).parent / "state"
STATE_FILE = STATE_DIR / "sessions.json"


class LogServer(SimpleResourcesServer):
    def model_post_init(self, context):
        with open(STATE_FILE, "w") as f:  # want `^GL111 start-up code LogServer.model_post_init writes the fixed path STATE_FILE \(open\(\.\.\., "w"\)\) without a file lock: every worker writes it help: write under the session's directory \(request.session\[SESSION_ID_KEY\]\) or hold a file lock \(fcntl.flock, filelock.FileLock\) around the write, or override multiple_workers_unsupported_reason\(\) on LogServer to return "It writes STATE_FILE, which every worker shares."$`
            json.dump({}, f)

    async def verify(self, body):
        self._append(self.config.log_path, body)
        Path(os.path.join(self.config.out_dir, "last.txt")).write_text("x")  # want `^GL111 route LogServer.verify writes the fixed path Path\(os.path.join\(self.config.out_dir, "last.txt"\)\) \(write_text\)`
        return body

    def _append(self, log_path, body):
        with open(log_path, "a", encoding="utf-8") as f:  # want `^GL111 route LogServer._append writes the fixed path log_path \(open\(\.\.\., "a"\)\) without a file lock`
            f.write(json.dumps({"r": 1}) + "\n")


if __name__ == "__main__":
    LogServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LogServer.run_webserver()  # related "module-level app of resources_servers/logsrv/app.py: uvicorn"
