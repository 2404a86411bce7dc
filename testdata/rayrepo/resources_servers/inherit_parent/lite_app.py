"""Starts the retrieval server with one shard, for smoke tests."""

from app import RetrievalServer

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

if __name__ == "__main__":
    RetrievalServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RetrievalServer.run_webserver()  # noqa: F401
