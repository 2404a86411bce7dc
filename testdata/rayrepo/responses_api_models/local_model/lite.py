"""Starts the local model server without its own class, for quick checks."""

from app import LocalModel

from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

if __name__ == "__main__":
    LocalModel.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = LocalModel.run_webserver()  # noqa: F401
