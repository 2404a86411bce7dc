"""A pocket-sized stand-in for the NeMo Gym framework package.

Fixture only: nothing here is imported or run by the linter's tests.
"""

from nemo_gym.server_utils import BaseServer, SimpleServer, is_nemo_gym_fastapi_entrypoint

__all__ = ["BaseServer", "SimpleServer", "is_nemo_gym_fastapi_entrypoint"]
