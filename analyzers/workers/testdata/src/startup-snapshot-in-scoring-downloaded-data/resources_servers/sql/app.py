import urllib.request
from pathlib import Path

import requests

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


def ensure_data(root):
    with urllib.request.urlopen("https://example.invalid/data.zip") as resp:
        Path(root, "data.zip").write_bytes(resp.read())  # want `GL111 start-up code ensure_data writes the fixed path Path\(root, "data.zip"\) \(write_bytes\) without a file lock`
    return Path(root)


def fetch_baseline(url):
    return requests.get(url).json()["baseline"]


class SqlServer(SimpleResourcesServer):
    def model_post_init(self, context):
        self._data_dir = self._download()
        self._root = ensure_data(self.config.root)
        self._baseline = fetch_baseline(self.config.baseline_url)

    def _download(self):
        requests.get(self.config.data_url).raise_for_status()
        return Path(self.config.data_dir)

    async def verify(self, body):
        db = self._data_dir / body.db_id / "db.sqlite"
        other = self._root / body.db_id
        return {"reward": 1.0 if body.score - self._baseline > 0 else 0.0, "db": str(db), "other": str(other)}


if __name__ == "__main__":
    SqlServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SqlServer.run_webserver()
