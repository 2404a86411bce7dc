from pydantic import BaseModel

from nemo_gym.config_types import BaseRunServerInstanceConfig


class BaseServer(BaseModel):
    config: BaseRunServerInstanceConfig


class SimpleServer(BaseServer):
    @classmethod
    def run_webserver(cls):
        return None
